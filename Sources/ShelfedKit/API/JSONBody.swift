import Foundation
import Hummingbird

/// JSON responses for the API: snake_case keys are spelled out by each type's `CodingKeys`, dates ISO-8601.
enum JSONBody {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    static func response(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"Internal Server Error"}"#.utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Decodes a JSON request body of at most `maxBytes`; anything else is a 400 or 413 with a clear message.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, maxBytes: Int = 64 * 1024) async throws
        -> T
    {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json")
        else {
            throw HTTPError(
                .unsupportedMediaType,
                message: localized("Send the request body as JSON (Content-Type: application/json)."))
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBytes)
        } catch {
            throw HTTPError(
                .contentTooLarge,
                message: localized("The request body is larger than {{size}} KB.", ["size": String(maxBytes / 1024)]))
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: Self.describe(error))
        }
    }

    /// Names the field a decoding error is about, without echoing the client's text back.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return localized("The field \"{{field}}\" has the wrong type.", ["field": path(context)])
        case .keyNotFound(let key, _):
            return localized("The field \"{{field}}\" is required.", ["field": key.stringValue])
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? localized("The request body is not valid JSON.")
                : localized("The field \"{{field}}\" is not valid.", ["field": path(context)])
        @unknown default:
            return localized("The request body is not the JSON this endpoint expects.")
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}
