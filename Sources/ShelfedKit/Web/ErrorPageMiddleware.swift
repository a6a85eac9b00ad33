import Foundation
import GRDB
import Hummingbird
import Logging

/// Turns every error into a page a person can act on (HTML) or the JSON error shape for `/api/` paths;
/// unexpected errors are logged and answered with a plain 500, never a stack trace or a blank page.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let renderer: PageRenderer
    /// Set on the copy inside the session: a path under `/static/` or `/covers/` that no route matched is passed
    /// on, so that the file middleware in front can serve it; any other 404 is rendered here, where the signed-in
    /// person is known, so the page keeps their navigation.
    var passesUnmatchedPaths = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            if passesUnmatchedPaths, context.endpointPath == "NotFound",
                request.uri.path.hasPrefix("/static/") || request.uri.path.hasPrefix("/covers/")
            {
                throw error
            }
            if APIRoute.isBooksTrackPath(request.uri.path) {
                var response = BooksTrackError.response(for: error, request: request, logger: context.logger)
                response.headers[.cacheControl] = "no-store"
                return response
            }
            let answer = FailureAnswer(error, request: request, logger: context.logger)
            let (status, headers, message) = (answer.status, answer.headers, answer.message)
            if APIRoute.isAPIPath(request.uri.path) {
                return jsonError(status: status, headers: headers, message: answer.jsonMessage)
            }
            let page = ErrorPage(status: status, message: message, context: context)
            var response = try renderer.render(page, template: "errors/error", status: status).response
            response.headers.append(contentsOf: headers)
            return response
        }
    }

    private func jsonError(status: HTTPResponse.Status, headers: HTTPFields, message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data("{}".utf8)
        var response = Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
        response.headers.append(contentsOf: headers)
        return response
    }
}

/// The error page: a title and advice chosen by status, and the specific message when there is one.
struct ErrorPage: Sendable {
    let chrome: PageChrome
    let statusCode: Int
    let heading: String
    let message: String

    init(status: HTTPResponse.Status, message: String?, context: AppRequestContext) {
        let (heading, advice) = Self.wording(for: status)
        self.statusCode = status.code
        self.heading = heading
        self.message = message ?? advice
        self.chrome = PageChrome(title: heading, context: context)
    }

    private static func wording(for status: HTTPResponse.Status) -> (String, String) {
        switch status {
        case .badRequest:
            return (
                localized("That request didn't make sense"),
                localized("Something in the link or form was malformed. Go back and try again.")
            )
        case .unauthorized:
            return (localized("Please sign in"), localized("You need to sign in to see this page."))
        case .forbidden:
            return (localized("That form has expired"), localized("Go back, reload the page and submit it again."))
        case .notFound:
            return (
                localized("Page not found"),
                localized("There is nothing here. It may have been removed, or the link is wrong.")
            )
        case .contentTooLarge:
            return (localized("That was too large"), localized("The upload was bigger than this server accepts."))
        case .tooManyRequests:
            return (localized("Too many attempts"), localized("Please wait a while and try again."))
        default:
            return (
                localized("Something went wrong"),
                localized("Shelfed hit a problem it didn't expect. Your data is safe; try again.")
            )
        }
    }
}
