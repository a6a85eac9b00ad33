import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import ShelfedKit

/// One cookie read from the header without parsing them all: the same answer Hummingbird's `cookies` gives, for
/// names that begin alike, odd spacing, several `Cookie` fields and hostile text.
@Suite struct RequestCookieTests {
    private func request(_ cookies: [String]) -> Request {
        var fields = HTTPFields()
        for cookie in cookies { fields.append(HTTPField(name: .cookie, value: cookie)) }
        return Request(
            head: HTTPRequest(
                method: .get, scheme: "http", authority: "shelfed.local", path: "/", headerFields: fields),
            body: .init(buffer: ByteBuffer()))
    }

    @Test func findsExactlyTheNamedCookie() {
        let cases: [([String], String, String?)] = [
            (["shelfed_language=es"], "shelfed_language", "es"),
            (["shelfed_language_old=fr; shelfed_language=de"], "shelfed_language", "de"),
            (["a=1;shelfed_view=list;  b=2"], "shelfed_view", "list"),
            (["a=1", "shelfed_view=grid"], "shelfed_view", "grid"),
            (["shelfed_view=list; shelfed_view=grid"], "shelfed_view", "list"),
            (["xshelfed_view=list"], "shelfed_view", nil),
            (["shelfed_view"], "shelfed_view", nil),
            (["shelfed_view="], "shelfed_view", ""),
            ([], "shelfed_view", nil),
            (["shelfed_csrf=abc=def"], "shelfed_csrf", "abc=def"),
        ]
        for (header, name, expected) in cases {
            let request = request(header)
            #expect(request.cookie(named: name).map(String.init) == expected, "\(header)")
            if let expected, !expected.isEmpty {
                #expect(request.cookies[name].map { String($0.value) } == expected, "Hummingbird agrees: \(header)")
            }
        }
    }
}
