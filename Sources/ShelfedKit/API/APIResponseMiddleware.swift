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
            let failure = FailureAnswer(error, request: request, logger: context.logger)
            response = JSONBody.response(
                APIErrorBody(error: failure.jsonMessage), status: failure.status,
                headers: failure.headers)
        }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

/// The Reader contract's error shape.
struct APIErrorBody: Encodable {
    let error: String
}
