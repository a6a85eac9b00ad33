import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ShelfedKit

/// One error vocabulary, mapped once to each surface: every `AppError` (and the other errors `FailureAnswer`
/// knows) as the HTML error page, `{"error": …}` under `/api/v1` and the BooksTrack envelope.
@Suite struct ErrorVocabularyTests {
    struct Unexpected: Error {}

    /// The error, then the status and BooksTrack code every surface must give it, and its message.
    static let table: [(error: any Error & Sendable, status: Int, code: String, message: String)] = [
        (AppError.notFound("No such book here."), 404, "NOT_FOUND", "No such book here."),
        (
            AppError.invalid("Use an ISBN of 10 or 13 digits.", field: "isbn"), 400, "INVALID_REQUEST",
            "Use an ISBN of 10 or 13 digits."
        ),
        (AppError.conflict("It is already in your library."), 409, "INVALID_REQUEST", "It is already in your library."),
        (
            AppError.gone("The account was deleted meanwhile."), 410, "INVALID_REQUEST",
            "The account was deleted meanwhile."
        ),
        (AppError.tooLarge("Photos can be up to 25 MB."), 413, "INVALID_REQUEST", "Photos can be up to 25 MB."),
        (AppError.unsupportedMedia("Use a JPEG, PNG or WebP."), 415, "INVALID_REQUEST", "Use a JPEG, PNG or WebP."),
        (AppError.rateLimited("Wait a minute.", retryAfter: 7), 429, "RATE_LIMIT_EXCEEDED", "Wait a minute."),
        (AppError.unavailable("zbar is not installed.", retryAfter: nil), 503, "API_ERROR", "zbar is not installed."),
        (
            AppError.internal("The image library could not start."), 500, "INTERNAL_ERROR",
            "The image library could not start."
        ),
        (
            UpstreamFailure.circuitOpen(provider: "Google Books", retryAfterMilliseconds: 30_000), 503, "CIRCUIT_OPEN",
            "Google Books is resting"
        ),
        (Unexpected(), 500, "INTERNAL_ERROR", "Shelfed hit a problem it"),
    ]

    /// A router like the app's: the error page outermost, `/api/v1` and the BooksTrack paths with their own
    /// middleware, each route throwing the table's error number `n`.
    static func router() async throws -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        let renderer = try await PageRenderer(directory: TestApp.packageRoot.appendingPathComponent("templates").path)
        router.add(middleware: ErrorPageMiddleware(renderer: renderer))
        let fail: @Sendable (Request, AppRequestContext) async throws -> String = { _, context in
            let index = try #require(context.parameters.get("n", as: Int.self))
            throw table[index].error
        }
        router.get("boom/:n", use: fail)
        router.group("api/v1").add(middleware: APIResponseMiddleware()).get("boom/:n", use: fail)
        router.group("v1").add(middleware: EnvelopeResponseMiddleware()).get("boom/:n", use: fail)
        return router
    }

    @Test func everyErrorOnEverySurface() async throws {
        let app = Application(router: try await Self.router(), logger: Logger(label: "errors"))
        try await app.test(.router) { client in
            for (index, row) in Self.table.enumerated() {
                let what = "\(row.error)"
                // The HTML page
                let page = try await client.execute(uri: "/boom/\(index)", method: .get)
                #expect(page.status.code == row.status, "\(what)")
                #expect(page.headers[.contentType]?.hasPrefix("text/html") == true, "\(what)")
                #expect(String(buffer: page.body).contains(row.message), "\(what)")
                // The Reader API
                let reader = try await client.execute(uri: "/api/v1/boom/\(index)", method: .get)
                #expect(reader.status.code == row.status, "\(what)")
                let readerBody = try JSONSerialization.jsonObject(with: Data(buffer: reader.body)) as? [String: Any]
                #expect((readerBody?["error"] as? String)?.contains(row.message) == true, "\(what)")
                #expect(reader.headers[.cacheControl] == "no-store")
                // The BooksTrack envelope
                let envelope = try await client.execute(uri: "/v1/boom/\(index)", method: .get)
                #expect(envelope.status.code == row.status, "\(what)")
                let body = try JSONSerialization.jsonObject(with: Data(buffer: envelope.body)) as? [String: Any]
                let error = body?["error"] as? [String: Any]
                #expect(body?["success"] as? Bool == false, "\(what)")
                #expect(error?["code"] as? String == row.code, "\(what)")
                #expect((error?["message"] as? String)?.contains(row.message) == true, "\(what)")
                // A wait, when known, is said the same way everywhere.
                if row.status == 429 {
                    for answer in [page, reader, envelope] { #expect(answer.headers[.retryAfter] == "7") }
                    #expect(error?["retryAfterMs"] as? Int == 7_000)
                }
            }
        }
    }
}
