import HTTPTypes

/// What went wrong, in the domain's words: thrown by stores, services, image and import code, and mapped once for
/// each surface (`FailureAnswer`): the HTML error page, `{"error": …}` under `/api/v1`, the BooksTrack envelope.
/// Every message is meant for a person and says what to do.
public enum AppError: Error, Sendable, Equatable {
    /// The thing asked for does not exist, or is someone else's.
    case notFound(String?)
    /// The request cannot be read as it stands; `field` names the input at fault when there is one.
    case invalid(String, field: String? = nil)
    /// The change clashes with what is there (it exists already, or it refers to something removed).
    case conflict(String)
    /// What the request was working on was deleted while it ran.
    case gone(String)
    /// More than this server accepts (bytes, pixels, memory).
    case tooLarge(String)
    /// A file that is not of a kind Shelfed reads.
    case unsupportedMedia(String)
    /// Too many at once or too soon; `retryAfter` in seconds when known.
    case rateLimited(String, retryAfter: Int?)
    /// Something Shelfed needs is not there now (a library not installed, a service not answering).
    case unavailable(String, retryAfter: Int?)
    /// A fault of Shelfed's own; logged, and the person told their data is safe.
    case `internal`(String)

    /// The HTTP status every surface answers with.
    public var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .invalid: .badRequest
        case .conflict: .conflict
        case .gone: .gone
        case .tooLarge: .contentTooLarge
        case .unsupportedMedia: .unsupportedMediaType
        case .rateLimited: .tooManyRequests
        case .unavailable: .serviceUnavailable
        case .internal: .internalServerError
        }
    }

    /// The message for the person; nil only for a plain "not found", whose wording the surface chooses.
    public var message: String? {
        switch self {
        case .notFound(let message): message
        case .invalid(let message, _), .conflict(let message), .gone(let message), .tooLarge(let message),
            .unsupportedMedia(let message), .rateLimited(let message, _), .unavailable(let message, _),
            .internal(let message):
            message
        }
    }

    /// Seconds to wait before trying again, sent as `Retry-After`.
    public var retryAfter: Int? {
        switch self {
        case .rateLimited(_, let seconds), .unavailable(_, let seconds): seconds
        default: nil
        }
    }
}
