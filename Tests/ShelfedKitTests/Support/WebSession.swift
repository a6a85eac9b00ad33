import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A browser stand-in: keeps cookies between requests and fills in the CSRF field of forms.
final class WebSession {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    /// The `_csrf` value of the last page that had a form: signed in, the token lives in the session, not a cookie.
    private var pageToken: String?
    /// Sent with every request, as a browser sends its `Accept-Language`.
    var extraHeaders: HTTPFields = [:]

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    var csrfToken: String? {
        // Signed in, only a page's token is worth anything; before sign-in the cookie's is.
        pageToken ?? (cookies["shelfed_session"] == nil ? cookies["shelfed_csrf"] : nil)
    }

    /// Opens a page with a form, as a browser would before posting one, so `csrfToken` is current.
    func refreshToken() async throws {
        pageToken = nil
        if try await get("/login").status == .seeOther { try await get("/") }
    }

    @discardableResult
    func get(_ path: String) async throws -> TestResponse {
        try await send(path, method: .get, body: nil, contentType: nil)
    }

    /// Posts `fields` as a URL-encoded form; `_csrf` is added from the cookie unless `csrf` says otherwise.
    @discardableResult
    func post(_ path: String, _ fields: [String: String] = [:], csrf: String? = nil) async throws -> TestResponse {
        if csrfToken == nil { try await refreshToken() }
        var fields = fields
        if fields["_csrf"] == nil { fields["_csrf"] = csrf ?? csrfToken }
        let body = fields.map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }.joined(separator: "&")
        return try await send(path, method: .post, body: body, contentType: "application/x-www-form-urlencoded")
    }

    /// Posts `pairs` in order, a name as often as it comes (checkboxes of one name); `_csrf` added as `post` adds it.
    @discardableResult
    func post(_ path: String, pairs: [(String, String)]) async throws -> TestResponse {
        if csrfToken == nil { try await refreshToken() }
        let fields = pairs + [("_csrf", csrfToken ?? "")]
        let body = fields.map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }.joined(separator: "&")
        return try await send(path, method: .post, body: body, contentType: "application/x-www-form-urlencoded")
    }

    func send(_ path: String, method: HTTPRequest.Method, body: String?, contentType: String?) async throws
        -> TestResponse
    {
        var headers = extraHeaders
        if !cookies.isEmpty {
            headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if let contentType { headers[.contentType] = contentType }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if header.contains("Max-Age=0") || value.isEmpty || Self.isExpired(header) {
                cookies[name] = nil
            } else {
                cookies[name] = value
            }
            // A new session (sign-in, sign-out) comes with a new token.
            if name == "shelfed_session" { pageToken = nil }
        }
        if let range = response.text.range(of: "name=\"_csrf\" value=\"") {
            pageToken = String(response.text[range.upperBound...].prefix(64))
        }
        return response
    }

    /// A file part for `upload`.
    struct FilePart {
        var field = "photo"
        var filename = "photo.jpg"
        var contentType = "image/jpeg"
        var data: Data
    }

    /// Posts a multipart form the way a browser does: `_csrf` first (unless `csrf` is given), then the text
    /// fields in order, then the files.
    @discardableResult
    func upload(_ path: String, fields: [(String, String)] = [], files: [FilePart], csrf: String? = nil)
        async throws -> TestResponse
    {
        if csrfToken == nil { try await refreshToken() }
        let boundary = "----ShelfedTestBoundary\(UUID().uuidString.prefix(8))"
        var body = Data()
        func append(_ text: String) { body.append(Data(text.utf8)) }
        for (name, value) in [("_csrf", csrf ?? csrfToken ?? "")] + fields {
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
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// Registers and signs in; returns the session for chaining.
    @discardableResult
    func register(_ username: String, password: String = "correct horse") async throws -> TestResponse {
        try await post(
            "/register",
            [
                "username": username, "display_name": username.capitalized, "email": "\(username)@example.com",
                "password": password,
            ])
    }

    @discardableResult
    func login(_ login: String, password: String = "correct horse", next: String? = nil) async throws -> TestResponse {
        var fields = ["login": login, "password": password]
        if let next { fields["next"] = next }
        return try await post("/login", fields)
    }

    /// Adds a book by hand and returns its id from the redirect.
    func addBook(_ fields: [String: String]) async throws -> Int64 {
        let response = try await post("/books", fields)
        guard response.status == .seeOther, let location = response.headers[.location],
            let path = location.split(separator: "?", maxSplits: 1).first,
            let id = Int64(path.split(separator: "/").last ?? "")
        else {
            throw TestFailure("adding \(fields) answered \(response.status): \(String(buffer: response.body))")
        }
        return id
    }

    private static func escape(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    private static func isExpired(_ header: String) -> Bool {
        guard let range = header.range(of: "Expires=") else { return false }
        let rest = header[range.upperBound...].split(separator: ";")[0]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: String(rest)) else { return false }
        return date < Date()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
