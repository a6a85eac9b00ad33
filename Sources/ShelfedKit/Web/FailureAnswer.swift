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

extension FailureAnswer {
    /// The message for a JSON answer: the failure's own, else a sentence for its status in the request's language
    /// (the status's English reason phrase, "Not Found", was the API's only English left).
    var jsonMessage: String {
        if let message { return message }
        switch status {
        case .badRequest: return localized("That request was not understood.")
        case .unauthorized: return localized("An API key is needed for this.")
        case .forbidden: return localized("That is not allowed.")
        case .notFound: return localized("There is nothing here. It may have been removed, or the address is wrong.")
        case .methodNotAllowed: return localized("That address does not take this method.")
        case .contentTooLarge: return localized("The request was bigger than this server accepts.")
        case .tooManyRequests: return localized("Too many requests. Wait a moment and try again.")
        case .internalServerError: return Self.unexpected
        case .serviceUnavailable: return localized("Shelfed cannot answer this right now. Try again in a moment.")
        default: return status.reasonPhrase
        }
    }
}
