import Hummingbird

/// A rendered page with its status; sets the HTML content type.
public struct HTML: ResponseGenerator, Sendable {
    public let body: ByteBuffer
    public var status: HTTPResponse.Status

    public init(_ body: String, status: HTTPResponse.Status = .ok) {
        self.body = ByteBuffer(string: body)
        self.status = status
    }

    /// A page already in UTF-8 bytes (a layout around a body built in Swift), with no copy through `String`.
    init(bytes: ByteBuffer, status: HTTPResponse.Status = .ok) {
        self.body = bytes
        self.status = status
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// The page as a response, for handlers that answer either a page or a redirect.
    public var response: Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: body)
        )
    }
}

extension Response {
    /// The 303 that follows every successful form POST (POST-redirect-GET).
    static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
