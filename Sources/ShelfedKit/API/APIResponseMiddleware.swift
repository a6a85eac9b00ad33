import Foundation
import GRDB
import Hummingbird
import Logging

/// Wraps every `/api/v1` route: answers are never cached (`Cache-Control: no-store`) and every error becomes
/// `{"error": "…"}` with its status — a person-readable message, never HTML, never a stack trace.
struct APIResponseMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let failure = APIFailure(error, request: request, logger: context.logger)
            response = JSONBody.response(
                APIErrorBody(error: failure.message), status: failure.status, headers: failure.headers)
        }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

/// What went wrong in an API request, as a status, headers and one message for the person using the app.
struct APIFailure {
    var status: HTTPResponse.Status
    var headers: HTTPFields = [:]
    var message: String

    init(_ error: any Error, request: Request, logger: Logger) {
        switch error {
        case let error as HTTPError:
            status = error.status
            headers = error.headers
            message = error.body ?? error.status.reasonPhrase
        case let error as any HTTPResponseError:
            status = error.status
            message = error.status.reasonPhrase
        case is DecodingError:
            status = .badRequest
            message = "The request body is not the JSON this endpoint expects."
        case let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY:
            status = .conflict
            message = "What this change refers to was removed meanwhile."
        default:
            logger.error("Unhandled API error on \(request.method) \(request.uri.path): \(error)")
            status = .internalServerError
            message = "Shelfed hit a problem it didn't expect. Your data is safe; try again."
        }
    }
}

/// The Reader contract's error shape.
struct APIErrorBody: Encodable {
    let error: String
}
