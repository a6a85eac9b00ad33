import Foundation
import GRDB
import Hummingbird
import Logging

/// An error in the BooksTrack shape: `{"success":false,"error":{"code","message","retryable","retryAfterMs"?,
/// "provider"?}}` with the status that goes with the code (DESIGN §6).
struct BooksTrackError: Error, Encodable {
    enum Code: String, Encodable {
        case invalidRequest = "INVALID_REQUEST"
        case notFound = "NOT_FOUND"
        case rateLimitExceeded = "RATE_LIMIT_EXCEEDED"
        case circuitOpen = "CIRCUIT_OPEN"
        case apiError = "API_ERROR"
        case networkError = "NETWORK_ERROR"
        case internalError = "INTERNAL_ERROR"
    }

    let code: Code
    let message: String
    let retryable: Bool
    var retryAfterMs: Int?
    var provider: String?
    /// Overrides the code's usual status (401 for a missing key is an INVALID_REQUEST).
    var statusOverride: HTTPResponse.Status?

    enum CodingKeys: String, CodingKey {
        case code, message, retryable, retryAfterMs, provider
    }

    init(code: Code, message: String, retryable: Bool, retryAfterMs: Int? = nil, provider: String? = nil) {
        self.code = code
        self.message = message
        self.retryable = retryable
        self.retryAfterMs = retryAfterMs
        self.provider = provider
    }

    var status: HTTPResponse.Status {
        if let statusOverride { return statusOverride }
        switch code {
        case .invalidRequest: return .badRequest
        case .notFound: return .notFound
        case .rateLimitExceeded: return .tooManyRequests
        case .circuitOpen: return .serviceUnavailable
        case .apiError: return .badGateway
        case .networkError: return .gatewayTimeout
        case .internalError: return .internalServerError
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(retryable, forKey: .retryable)
        try container.encodeIfPresent(retryAfterMs, forKey: .retryAfterMs)
        try container.encodeIfPresent(provider, forKey: .provider)
    }

    static func invalid(_ message: String) -> Self {
        Self(code: .invalidRequest, message: message, retryable: false)
    }

    /// A provider's failure in the client's terms: which code, whether a retry can help and when.
    init(_ failure: UpstreamFailure) {
        switch failure {
        case .circuitOpen(let provider, let milliseconds):
            self.init(
                code: .circuitOpen,
                message: localized(
                    "{{provider}} is resting after repeated failures; try again later.", ["provider": provider]),
                retryable: true, retryAfterMs: milliseconds, provider: Self.providerID(provider))
        case .timeout:
            self.init(
                code: .networkError, message: localized("The book provider did not answer in time."), retryable: true)
        case .network:
            self.init(
                code: .networkError, message: localized("The book provider could not be reached."), retryable: true)
        case .unreachable:
            self.init(
                code: .networkError,
                message: localized("The book provider cannot be reached from this server (is it offline?)."),
                retryable: true)
        case .serverError(let status):
            self.init(
                code: .apiError,
                message: localized("The book provider failed (HTTP {{status}}).", ["status": String(status)]),
                retryable: true)
        case .rateLimited(let retryAfter, let dailyQuota):
            self.init(
                code: .apiError,
                message: dailyQuota
                    ? localized("The book provider's daily limit is used up; it resets tomorrow.")
                    : localized("The book provider asks us to slow down."),
                retryable: !dailyQuota, retryAfterMs: dailyQuota ? nil : retryAfter.map { $0 * 1000 },
                provider: "google_books")
        case .refused(let status):
            self.init(
                code: .apiError,
                message: localized(
                    "The book provider refused the request (HTTP {{status}}).", ["status": String(status)]),
                retryable: false)
        case .notFound:
            self.init(code: .notFound, message: localized("No book matches."), retryable: false)
        case .malformed, .tooLarge:
            self.init(
                code: .apiError, message: localized("The book provider sent an answer Shelfed cannot read."),
                retryable: true)
        }
    }

    private static func providerID(_ name: String) -> String {
        name == "Open Library" ? "open_library" : "google_books"
    }

    /// Any error in the envelope's terms: a provider's failure with its provider and wait, anything else by the
    /// status `FailureAnswer` gives it.
    static func from(_ error: any Error, request: Request, logger: Logger) -> Self {
        if let error = error as? BooksTrackError { return error }
        let answer = FailureAnswer(error, request: request, logger: logger)
        if let upstream = answer.upstream { return Self(upstream) }
        let code: Code
        switch answer.status {
        case .notFound: code = .notFound
        case .tooManyRequests: code = .rateLimitExceeded
        case .internalServerError: code = .internalError
        case .serviceUnavailable: code = .apiError
        default: code = .invalidRequest
        }
        var result = Self(
            code: code, message: answer.jsonMessage,
            retryable: answer.status == .serviceUnavailable || answer.status == .internalServerError)
        result.statusOverride = answer.status
        if let seconds = answer.headers[.retryAfter].flatMap({ Int($0) }) { result.retryAfterMs = seconds * 1000 }
        return result
    }
}

extension BooksTrackError {
    private struct ErrorBody: Encodable {
        let success = false
        let error: BooksTrackError
    }

    /// Any error as the envelope's error answer, with `Retry-After` where a wait is known.
    static func response(for error: any Error, request: Request, logger: Logger) -> Response {
        let failure = from(error, request: request, logger: logger)
        var headers: HTTPFields = [:]
        if let httpError = error as? HTTPError { headers = httpError.headers }
        headers[.retryAfter] = nil
        if let milliseconds = failure.retryAfterMs {
            headers[.retryAfter] = String(max(1, (milliseconds + 999) / 1000))
        }
        return JSONBody.response(ErrorBody(error: failure), status: failure.status, headers: headers)
    }
}

/// Where a BooksTrack answer came from: `google_books`, `open_library` or `cache`.
struct EnvelopeMetadata: Encodable {
    let source: String
    let cached: Bool
}

/// The BooksTrack success envelope.
struct Envelope<Data: Encodable>: Encodable {
    let success = true
    let data: Data
    let metadata: EnvelopeMetadata?

    enum CodingKeys: String, CodingKey {
        case success, data, metadata
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encode(data, forKey: .data)
        try container.encodeIfPresent(metadata, forKey: .metadata)
    }
}

/// Wraps every BooksTrack route: errors in the envelope's shape with `Retry-After` where a wait is known, and
/// `no-store` unless the handler chose a cache policy.
struct EnvelopeResponseMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = BooksTrackError.response(for: error, request: request, logger: context.logger)
        }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
