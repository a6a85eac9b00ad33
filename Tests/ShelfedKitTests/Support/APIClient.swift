import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A phone app stand-in: sends JSON with an API key (as a `Bearer` header, or in the query string as the Reader
/// app does) and reads JSON answers. It never sends a cookie.
struct APIClient {
    let client: any TestClientProtocol
    var key: String?
    var userID: Int64?
    /// Sends the key as `?api_key=&user_id=` instead of the `Authorization` header.
    var keyInQuery = false

    init(_ client: any TestClientProtocol, key: String? = nil) {
        self.client = client
        self.key = key
    }

    /// `POST /api/v1/sessions`; on success the client keeps the key and user id.
    @discardableResult
    mutating func signIn(_ email: String, password: String = "correct horse", deviceName: String? = nil) async throws
        -> TestResponse
    {
        var body: [String: Any] = ["email": email, "password": password]
        if let deviceName { body["device_name"] = deviceName }
        let response = try await send(.post, "/api/v1/sessions", json: body)
        if response.status == .ok, let object = response.json {
            key = object["api_key"] as? String
            userID = (object["user_id"] as? NSNumber)?.int64Value
        }
        return response
    }

    @discardableResult
    func get(_ path: String) async throws -> TestResponse {
        try await send(.get, path)
    }

    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, json: Any? = nil, headers extra: HTTPFields = [:])
        async throws -> TestResponse
    {
        var headers = extra
        var uri = path
        if let key {
            if keyInQuery {
                uri += (path.contains("?") ? "&" : "?") + "api_key=\(key)&user_id=\(userID ?? 0)"
            } else if headers[.authorization] == nil {
                headers[.authorization] = "Bearer \(key)"
            }
        }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            headers[.contentType] = "application/json"
        }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body)
    }
}

extension APIClient {
    /// Posts a multipart form with the key and no CSRF part, as a phone app does.
    @discardableResult
    func upload(_ path: String, fields: [(String, String)] = [], files: [WebSession.FilePart]) async throws
        -> TestResponse
    {
        let boundary = "----ShelfedAPIBoundary\(UUID().uuidString.prefix(8))"
        var body = Data()
        func append(_ text: String) { body.append(Data(text.utf8)) }
        for (name, value) in fields {
            append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        for file in files {
            append(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.filename)\"\r\n"
            )
            append("Content-Type: \(file.contentType)\r\n\r\n")
            body.append(file.data)
            append("\r\n")
        }
        append("--\(boundary)--\r\n")
        var headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
        if let key { headers[.authorization] = "Bearer \(key)" }
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }
}

extension TestResponse {
    /// The body as a JSON object, or nil when it is not one.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
    }
}
