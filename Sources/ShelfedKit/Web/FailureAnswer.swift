import Foundation
import GRDB
import Hummingbird
import Logging

/// Any error as Shelfed answers it, classified in this one place for every surface: the HTML error page
/// (`ErrorPageMiddleware`), `{"error": …}` under `/api/v1` (`APIResponseMiddleware`) and the BooksTrack envelope
/// (`BooksTrackError`). An error nobody expected is logged here and answered with a plain 500.
struct FailureAnswer {
    let status: HTTPResponse.Status
    var headers: HTTPFields = [:]
    /// For the person; nil when the surface's own wording for the status says it best (a bare 404).
    let message: String?
    /// Set when a book provider failed: the BooksTrack envelope names the provider and the wait.
    var upstream: UpstreamFailure?

    static var unexpected: String { localized("Shelfed hit a problem it didn't expect. Your data is safe; try again.") }

    init(status: HTTPResponse.Status, headers: HTTPFields = [:], message: String?) {
        self.status = status
        self.headers = headers
        self.message = message
    }

    init(_ error: any Error, request: Request, logger: Logger) {
        switch error {
        case let error as AppError:
            self.init(status: error.status, message: error.message)
            if let seconds = error.retryAfter { headers[.retryAfter] = String(max(1, seconds)) }
            if case .internal = error { logger.error("\(request.method) \(request.uri.path): \(error)") }
        case let error as UpstreamFailure:
            let answer = BooksTrackError(error)
            self.init(status: answer.status, message: answer.message)
            if let milliseconds = answer.retryAfterMs {
                headers[.retryAfter] = String(max(1, (milliseconds + 999) / 1000))
            }
            upstream = error
        case let error as HTTPError:
            self.init(status: error.status, headers: error.headers, message: error.body)
        case let error as any HTTPResponseError:
            self.init(status: error.status, message: nil)
        case is DecodingError:
            self.init(
                status: .badRequest, message: localized("The request body is not the JSON this endpoint expects."))
        case let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY:
            // What the change pointed at was removed meanwhile: the book, or the account being deleted.
            logger.notice("Refused a change to something removed: \(error)")
            self.init(
                status: .conflict,
                message: localized(
                    "What this change refers to was removed meanwhile (the book, or your account). Reload the page and try again."
                ))
        default:
            logger.error("Unhandled error on \(request.method) \(request.uri.path): \(error)")
            self.init(status: .internalServerError, message: Self.unexpected)
        }
    }
}
