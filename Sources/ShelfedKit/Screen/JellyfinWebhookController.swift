import Foundation
import HTTPTypes
import Hummingbird

/// POST /hooks/jellyfin?secret=… — the household's Jellyfin webhook plugin ("Generic" destination) tells Shelfed
/// what a member finished (issue 38). No session and no CSRF token: the secret is the key, in the query (which the
/// request log leaves out) or in an `X-Shelfed-Secret` header. Every answer is JSON for the plugin's log: 401 without
/// the secret, 403 for a Jellyfin user no member is linked to, 404 while no secret was made, 413 over 256 KB.
struct JellyfinWebhookController: Sendable {
    let webhook: JellyfinWebhookStore
    let clock: AppClock

    static let maxBodyBytes = 256 * 1024
    /// Not a `Route`: no page links to it and it answers no form, only Jellyfin, with its secret.
    static let path = "/hooks/jellyfin"

    struct Answer: Encodable {
        let outcome: JellyfinOutcome
    }

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.post(RouterPath(Self.path), use: receive)
    }

    @Sendable func receive(_ request: Request, context: AppRequestContext) async throws -> Response {
        let secret =
            request.headers[HTTPField.Name("X-Shelfed-Secret")!]
            ?? FormFields(urlEncoded: request.uri.query ?? "")["secret"]
        switch try await webhook.accepts(secret: secret) {
        case nil:
            throw HTTPError(
                .notFound, message: localized("The household has no Jellyfin webhook. The admin makes one."))
        case false?:
            throw HTTPError(.unauthorized, message: localized("This webhook's address lacks the household's secret."))
        case true?: break
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.maxBodyBytes)
        } catch {
            throw HTTPError(
                .contentTooLarge, message: "A Jellyfin notification is a few kilobytes; this one is over 256 KB.")
        }
        let event: JellyfinEvent
        do {
            event = try JSONDecoder().decode(JellyfinEvent.self, from: Data(buffer: body))
        } catch {
            throw HTTPError(
                .badRequest,
                message: localized("Send the Jellyfin webhook plugin's JSON (a Generic destination, all properties).")
            )
        }
        guard
            let member = try await webhook.db.read({ db in try JellyfinWebhookStore.member(for: event, db) })
        else {
            throw HTTPError(
                .forbidden,
                message: localized("No member of this household is linked to that Jellyfin user. The admin links them.")
            )
        }
        let day = event.day(in: clock.timeZone, today: clock.today())
        let outcome = try await webhook.count(event, for: member, day: day, now: clock.now())
        return JSONBody.response(Answer(outcome: outcome))
    }
}
