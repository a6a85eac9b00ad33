import Foundation
import HummingbirdTesting
import NIOCore
import Testing
import Yams

@testable import ShelfedKit

/// `Resources/openapi.yaml` describes exactly the API the router serves, and is served with its reference page.
@Suite struct OpenAPITests {
    static func spec() throws -> [String: Any] {
        let text = try String(
            contentsOf: TestApp.packageRoot.appendingPathComponent("Resources/openapi.yaml"), encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    @Test func theSpecAndTheRoutesAgreePathByPathAndMethodByMethod() throws {
        let paths = try #require(try Self.spec()["paths"] as? [String: [String: Any]])
        let described = Dictionary(
            uniqueKeysWithValues: paths.map { path, item in
                (path, Set(item.keys.filter { APIDocsPage.methods.contains($0) }))
            })
        let routed = Dictionary(
            uniqueKeysWithValues: APIRoute.allCases.filter(\.isDescribed).map { route in
                (route.openAPIPath, Set(route.methods.map { $0.rawValue.lowercased() }))
            })
        #expect(described == routed)
    }

    @Test func everyDescribedOperationAnswersWithoutAKeyAsTheSpecSays() async throws {
        let paths = try #require(try Self.spec()["paths"] as? [String: [String: Any]])
        // (path, method, documented statuses), Sendable for the test client's closure.
        let operations: [(String, String, Set<String>)] = paths.flatMap { path, item in
            APIDocsPage.methods.compactMap { method in
                (item[method] as? [String: Any]).map {
                    (path, method, Set(($0["responses"] as? [String: Any] ?? [:]).keys))
                }
            }
        }
        try await TestApp().run { client in
            for (path, method, documented) in operations {
                do {
                    let uri = path.replacingOccurrences(of: "{id}", with: "1")
                        .replacingOccurrences(of: "{photoID}", with: "1").replacingOccurrences(
                            of: "{variant}", with: "thumb")
                    let response = try await client.execute(
                        uri: uri, method: .init(method.uppercased())!, headers: [.contentType: "application/json"],
                        body: ByteBuffer(string: "{}"))
                    #expect(documented.contains(String(response.status.code)), "\(method) \(path) → \(response.status)")
                    #expect(response.status.code < 500, "\(method) \(path)")
                    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(method) \(path)")
                }
            }
        }
    }

    @Test func theSpecAndItsReferencePageAreServedOffline() async throws {
        try await TestApp().run { client in
            let yaml = try await client.execute(uri: "/api/openapi.yaml", method: .get)
            #expect(yaml.status == .ok)
            #expect(yaml.headers[.contentType] == "application/yaml; charset=utf-8")
            #expect(String(buffer: yaml.body).hasPrefix("openapi: 3.1.0"))

            let docs = try await client.execute(uri: "/api/docs", method: .get)
            #expect(docs.status == .ok)
            let html = String(buffer: docs.body)
            #expect(html.contains("<code>/api/v1/books/{id}</code>"))
            #expect(html.contains("id=\"schema-BookDTO\""))
            #expect(html.contains("<code>INVALID_REQUEST</code>") || html.contains("INVALID_REQUEST"))
            #expect(!html.contains("<script"))
            #expect(!html.contains("https://"))
        }
    }
}
