import Hummingbird
import Logging

/// Logs each request's method and path at debug level — never its query string, where an API key
/// (`?api_key=`), a search or a sign-in redirect could sit — and how it ended.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard context.logger.logLevel <= .debug else { return try await next(request, context) }
        let line = Self.describe(request)
        do {
            let response = try await next(request, context)
            context.logger.debug("\(line) → \(response.status.code)")
            return response
        } catch {
            context.logger.debug("\(line) → error \((error as? any HTTPResponseError)?.status.code ?? 500)")
            throw error
        }
    }

    /// The method and path; the query is left out on purpose.
    static func describe(_ request: Request) -> Logger.Message {
        "\(request.method) \(request.uri.path)"
    }
}
