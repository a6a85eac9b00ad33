import Foundation
import GRDB
import Hummingbird

/// A member brings in what they played in the house's Jellyfin (issue 38): every played film and episode of the
/// Jellyfin user they are linked to (Household → Jellyfin), counted as the webhook counts one. The answer is the
/// Import page with what came in, or what to do.
struct JellyfinHistoryController: Sendable {
    let server: JellyfinServer
    let webhook: JellyfinWebhookStore
    let imports: ImportStore
    let users: UserStore
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.importJellyfin.routerPath, use: bringIn)
    }

    /// POST /import/from-jellyfin
    @Sendable func bringIn(_ request: Request, context: SignedInContext) async throws -> HTML {
        guard let saved = try await server.saved() else {
            throw AppError.notFound(
                localized("The house's Jellyfin is not linked. Whoever runs Shelfed links it in Household."))
        }
        var section = ImportIndexPage.JellyfinSection(formPath: Route.importJellyfin.link())
        var status = HTTPResponse.Status.ok
        do {
            section.notice = try await bringIn(from: saved, for: context.userID)
        } catch let problem as Problem {
            section.problem = problem.message
            status = .unprocessableContent
        } catch let failure as UpstreamFailure {
            switch failure {
            case .refused(status: 401), .refused(status: 403):
                let ask = localized(
                    "ask whoever runs Shelfed to save a new one in {{where}}.", ["where": Self.settingsPlace])
                let refused = localized("Jellyfin refused the household's API key: {{ask}}", ["ask": ask])
                section.problem = localized("{{problem}} Nothing was changed.", ["problem": refused])
            default:
                section.problem = localized(
                    "{{problem}} Nothing was changed.",
                    ["problem": JellyfinController.advice(for: failure, url: saved.url)])
            }
            status = failure.pageStatus
        }
        var page = ImportIndexPage(
            context: context, jobs: try await imports.jobs(of: context.userID), error: nil)
        page.jellyfin = section
        return try renderer.render(page, template: "import/index", status: status)
    }

    private struct Problem: Error {
        let message: String
    }

    private func bringIn(from saved: (url: String, apiKey: String), for memberID: Int64) async throws -> String {
        let linked = try await webhook.db.read { db in
            try String.fetchOne(db, sql: "SELECT jellyfin_user FROM user WHERE id = ?", arguments: [memberID])
        }
        guard let linked else {
            let ask = localized(
                "ask whoever runs Shelfed to add your Jellyfin user name in {{where}}.", ["where": Self.settingsPlace])
            throw Problem(message: localized("You are not linked to a Jellyfin user yet: {{ask}}", ["ask": ask]))
        }
        let client = server.client(url: saved.url, apiKey: saved.apiKey)
        let wanted = JellyfinWebhookStore.compactID(linked)
        guard
            let user = try await client.users().first(where: { user in
                user.id.map(JellyfinWebhookStore.compactID) == wanted || user.name?.lowercased() == linked.lowercased()
            }), let jellyfinID = user.id, jellyfinID.utf8.count <= 64,
            jellyfinID.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-") })
        else {
            throw Problem(
                message: localized("Jellyfin has no user “{{name}}”.", ["name": linked]) + " "
                    + localized(
                        "Ask whoever runs Shelfed to check the name in {{where}}.", ["where": Self.settingsPlace]))
        }
        let (items, capped) = try await client.playedItems(of: jellyfinID)
        var outcome = try await webhook.countHistory(
            items, for: memberID, timeZone: clock.timeZone, today: clock.today(), now: clock.now())
        outcome.capped = capped
        return Self.summary(outcome)
    }

    /// "Household → Jellyfin", where the admin links a member to their Jellyfin user.
    private static var settingsPlace: String { localized("Household") + " → Jellyfin" }

    static func summary(_ outcome: JellyfinWebhookStore.HistoryOutcome) -> String {
        let counted = localized(
            one: "{{count}} film or episode counted", other: "{{count}} films and episodes counted",
            count: outcome.counted)
        var text =
            outcome.alreadyCounted > 0
            ? localized(
                one: "From Jellyfin: {{counted}}, {{count}} was already.",
                other: "From Jellyfin: {{counted}}, {{count}} were already.", count: outcome.alreadyCounted,
                ["counted": counted])
            : localized("From Jellyfin: {{counted}}.", ["counted": counted])
        if outcome.passedOver > 0 {
            let why = localized(
                "mostly episodes of shows not on your shelves: add a show, then bring this in again.")
            text +=
                " "
                + localized(
                    one: "{{count}} item was passed over, {{why}}", other: "{{count}} items were passed over, {{why}}",
                    count: outcome.passedOver, ["why": why])
        }
        if outcome.capped {
            text +=
                " "
                + localized(
                    "Jellyfin lists more than {{limit}} plays: the latest were brought in.",
                    ["limit": String(JellyfinClient.pageSize * JellyfinClient.maxPages)])
        }
        return text
    }
}

extension JellyfinWebhookStore {
    /// How a member's played history came in.
    struct HistoryOutcome: Sendable, Equatable {
        var counted = 0
        var alreadyCounted = 0
        /// Episodes of shows the member does not have, items of other kinds or without a day: nothing on a guess.
        var passedOver = 0
        /// Jellyfin listed more than `JellyfinClient`'s limit: the latest plays were brought in.
        var capped = false
    }

    /// Counts each played item for `userID` on the day it was last played (each once a day, as the webhook does:
    /// bringing the history in again adds nothing).
    func countHistory(_ items: [JellyfinClient.Item], for userID: Int64, timeZone: TimeZone, today: String, now: Date)
        async throws -> HistoryOutcome
    {
        var outcome = HistoryOutcome()
        for item in items {
            let event = item.event
            guard let day = event.playedDay(in: timeZone, today: today) else {
                outcome.passedOver += 1
                continue
            }
            switch try await count(event, for: userID, day: day, now: now) {
            case .counted: outcome.counted += 1
            case .alreadyCounted: outcome.alreadyCounted += 1
            case .ignored, .notInLibrary: outcome.passedOver += 1
            }
        }
        return outcome
    }
}
