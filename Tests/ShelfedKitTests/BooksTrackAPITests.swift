import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// The BooksTrack app's contract (DESIGN §6): search envelope, errors, limits, keyless access and enrichment.
@Suite struct BooksTrackAPITests {
    static func app(_ fake: FakeBooksServer, access: APISearchAccess = .lan, breakerThreshold: Int = 5) -> TestApp {
        var settings = fake.settings()
        settings.breakerThreshold = breakerThreshold
        var app = TestApp(search: settings)
        app.config.apiSearchAccess = access
        return app
    }

    @Test func anISBNSearchIsOneBookInTheEnvelopeThenACacheHit() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake).run(live: true) { client in
                let first = try await client.execute(uri: "/v1/search/isbn?isbn=0140446044", method: .get)
                #expect(first.status == .ok)
                #expect(first.headers[.xCache] == "MISS")
                #expect(first.headers[.cacheControl] == "private, max-age=604800")
                let body = try #require(first.json)
                #expect(body["success"] as? Bool == true)
                let metadata = try #require(body["metadata"] as? [String: Any])
                #expect(metadata["source"] as? String == "google_books")
                #expect(metadata["cached"] as? Bool == false)
                let book = try #require(body["data"] as? [String: Any])
                #expect(book["isbn13"] as? String == "9780140446043")
                #expect(book["isbn"] as? String == "0140446044")
                #expect((book["authors"] as? [String])?.isEmpty == false)
                let keys: Set<String> = [
                    "isbn", "isbn13", "title", "authors", "publisher", "publishedDate", "description", "pageCount",
                    "categories", "language", "coverUrl", "averageRating", "ratingsCount",
                ]
                #expect(Set(book.keys) == keys)

                let again = try await client.execute(uri: "/v1/search/isbn?isbn=978-0-14-044604-3", method: .get)
                #expect(again.headers[.xCache] == "HIT")
                let cachedMetadata = try #require(again.json?["metadata"] as? [String: Any])
                #expect(cachedMetadata["source"] as? String == "cache")
                #expect(cachedMetadata["cached"] as? Bool == true)
                #expect(fake.googleRequests.count == 1)
            }
        }
    }

    @Test func titleAndAuthorSearchesHonourTheLimit() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake).run(live: true) { client in
                let response = try await client.execute(uri: "/v1/search/title?q=harry%20potter&limit=3", method: .get)
                #expect(response.status == .ok)
                let data = try #require(response.json?["data"] as? [String: Any])
                #expect((data["books"] as? [[String: Any]])?.count == 3)
                #expect(data["totalItems"] as? Int == 2551)
                #expect(fake.googleRequests.last?.contains("intitle:harry") == true)

                // `+` is a space, as form-encoding clients send it.
                let author = try await client.execute(uri: "/v1/search/author?q=harry+potter", method: .get)
                #expect(author.status == .ok)
                #expect(((author.json?["data"] as? [String: Any])?["books"] as? [Any])?.count == 10)
                #expect(fake.googleRequests.last?.contains("inauthor:harry") == true)
            }
        }
    }

    @Test func badRequestsGetTheErrorEnvelope() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake).run(live: true) { client in
                let cases = [
                    "/v1/search/isbn", "/v1/search/isbn?isbn=123", "/v1/search/title", "/v1/search/title?q=%20",
                    "/v1/search/title?q=x&limit=0", "/v1/search/title?q=x&limit=41",
                    "/v1/search/title?q=x&limit=9223372036854775807", "/v1/search/title?q=x&limit=%D9%A3",
                    "/v1/search/author?q=" + String(repeating: "a", count: 301),
                ]
                for uri in cases {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(response.json?["success"] as? Bool == false)
                    let error = try #require(response.json?["error"] as? [String: Any], "\(uri)")
                    #expect(error["code"] as? String == "INVALID_REQUEST")
                    #expect(error["retryable"] as? Bool == false)
                    #expect(error["message"] is String)
                }
                #expect(fake.googleRequests.isEmpty)

                let unknown = try await client.execute(uri: "/v1/search/isbn?isbn=9783868943238", method: .get)
                #expect(unknown.status == .notFound)
                #expect((unknown.json?["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            }
        }
    }

    @Test func anOpenBreakerSaysWhenToComeBack() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake, breakerThreshold: 1).run(live: true) { client in
                fake.failGoogle(.status(500), .status(500), .status(500))
                let failed = try await client.execute(uri: "/v1/search/title?q=batman", method: .get)
                #expect(failed.status == .badGateway)
                #expect((failed.json?["error"] as? [String: Any])?["code"] as? String == "API_ERROR")
                #expect((failed.json?["error"] as? [String: Any])?["retryable"] as? Bool == true)

                let open = try await client.execute(uri: "/v1/search/title?q=batman", method: .get)
                #expect(open.status == .serviceUnavailable)
                let error = try #require(open.json?["error"] as? [String: Any])
                #expect(error["code"] as? String == "CIRCUIT_OPEN")
                #expect(error["provider"] as? String == "google_books")
                #expect(error["retryable"] as? Bool == true)
                let wait = try #require(error["retryAfterMs"] as? Int)
                #expect((59_000...60_000).contains(wait))
                #expect(open.headers[.retryAfter] == "60")
            }
        }
    }

    @Test func searchesAreLimitedPerClientPerMinute() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake).run(live: true) { client in
                for _ in 0..<100 {
                    let response = try await client.execute(uri: "/v1/search/title?q=batman", method: .get)
                    #expect(response.status == .ok)
                }
                let limited = try await client.execute(uri: "/v1/search/title?q=batman", method: .get)
                #expect(limited.status == .tooManyRequests)
                #expect((limited.json?["error"] as? [String: Any])?["code"] as? String == "RATE_LIMIT_EXCEEDED")
                #expect(Int(limited.headers[.retryAfter] ?? "") != nil)
                // Another route has its own budget.
                #expect(try await client.execute(uri: "/v1/search/author?q=batman", method: .get).status == .ok)
            }
        }
    }

    @Test func keylessSearchFollowsTheSetting() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake, access: .key).run(live: true) { client in
                let keyless = try await client.execute(uri: "/v1/search/title?q=batman", method: .get)
                #expect(keyless.status == .unauthorized)
                #expect((keyless.json?["error"] as? [String: Any])?["code"] as? String == "INVALID_REQUEST")
                try await WebSession(client).register("alice")
                var api = APIClient(client)
                try await api.signIn("alice@example.com")
                #expect(try await api.get("/v1/search/title?q=batman").status == .ok)
                let badKey = try await client.execute(
                    uri: "/v1/search/title?q=batman", method: .get,
                    headers: [.authorization: "Bearer " + String(repeating: "a", count: 40)])
                #expect(badKey.status == .unauthorized)
                #expect(badKey.json?["success"] as? Bool == false)
            }
        }
        #expect(NetworkAddress.isLocal("127.0.0.1") && NetworkAddress.isLocal("::1"))
        #expect(NetworkAddress.isLocal("192.168.1.20") && NetworkAddress.isLocal("10.0.0.7"))
        #expect(NetworkAddress.isLocal("172.16.0.1") && !NetworkAddress.isLocal("172.32.0.1"))
        #expect(NetworkAddress.isLocal("::ffff:192.168.0.2") && NetworkAddress.isLocal("fd12::1"))
        #expect(!NetworkAddress.isLocal("8.8.8.8") && !NetworkAddress.isLocal("2001:db8::1"))
        #expect(!NetworkAddress.isLocal("::ffff:8.8.8.8"))
    }

    @Test func enrichmentIsTheBareWorkEditionAndAuthors() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake).run(live: true) { client in
                let api = APIClient(client)
                let response = try await api.send(
                    .post, "/api/v2/books/enrich", json: ["barcode": "9780060273224", "idempotencyKey": "scan-1"])
                #expect(response.status == .ok)
                let body = try #require(response.json)
                #expect(body["success"] == nil)
                let work = try #require(body["work"] as? [String: Any])
                #expect(work["id"] as? String == "OL15832982W")
                #expect(work["title"] as? String == "Sabriel")
                #expect(work["firstPublishYear"] as? Int == 1995)
                #expect((work["subjects"] as? [String])?.contains("Fantasy") == true)
                let edition = try #require(body["edition"] as? [String: Any])
                #expect(edition["id"] as? String == "OL22951843M")
                #expect(edition["numberOfPages"] as? Int == 491)
                #expect(edition["physicalFormat"] as? String == "Hardcover")
                #expect(edition["publishers"] as? [String] == ["Harper Trophy"])
                let authors = try #require(body["authors"] as? [[String: Any]])
                #expect(authors.first?["name"] as? String == "Garth Nix")
                #expect(authors.first?["key"] as? String == "OL382982A")
                #expect(authors.first?["birthDate"] is NSNull)

                let upstreamCalls = fake.openLibraryRequests.count + fake.googleRequests.count
                let repeated = try await api.send(
                    .post, "/api/v2/books/enrich", json: ["barcode": "9780060273224", "idempotencyKey": "scan-1"])
                #expect(repeated.status == .ok)
                #expect(repeated.body == response.body)
                #expect(fake.openLibraryRequests.count + fake.googleRequests.count == upstreamCalls)

                let reused = try await api.send(
                    .post, "/api/v2/books/enrich", json: ["barcode": "9780140446043", "idempotencyKey": "scan-1"])
                #expect(reused.status == .badRequest)
            }
        }
    }

    @Test func enrichmentErrorsUseTheEnvelope() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake).run(live: true) { client in
                let api = APIClient(client)
                let bad = try await api.send(.post, "/api/v2/books/enrich", json: ["barcode": "12345"])
                #expect(bad.status == .badRequest)
                #expect((bad.json?["error"] as? [String: Any])?["code"] as? String == "INVALID_REQUEST")
                let unknown = try await api.send(.post, "/api/v2/books/enrich", json: ["barcode": "9783868943238"])
                #expect(unknown.status == .notFound)
                #expect((unknown.json?["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
                let notJSON = try await api.send(.post, "/api/v2/books/enrich", json: ["code": 1])
                #expect(notJSON.status == .badRequest)
                #expect(notJSON.json?["success"] as? Bool == false)
                // Enrichment allows 5 calls a minute per client; three were made.
                _ = try await api.send(.post, "/api/v2/books/enrich", json: ["barcode": "9780060273224"])
                _ = try await api.send(.post, "/api/v2/books/enrich", json: ["barcode": "9780060273224"])
                let limited = try await api.send(.post, "/api/v2/books/enrich", json: ["barcode": "9780060273224"])
                #expect(limited.status == .tooManyRequests)
                #expect((limited.json?["error"] as? [String: Any])?["code"] as? String == "RATE_LIMIT_EXCEEDED")
            }
        }
    }

    /// Per person, not per key (issue 35): every sign-in makes a key, so a budget per key was refilled by signing in.
    @Test func limitsArePerPersonNotPerKey() async throws {
        try await FakeBooksServer.run { fake in
            try await Self.app(fake).run(live: true) { client in
                try await WebSession(client).register("alice")
                var phone = APIClient(client)
                try await phone.signIn("alice@example.com", deviceName: "phone")
                var tablet = APIClient(client)
                try await tablet.signIn("alice@example.com", deviceName: "tablet")
                for _ in 0..<5 {
                    _ = try await phone.send(.post, "/api/v2/books/enrich", json: ["barcode": "9780060273224"])
                }
                let limited = try await phone.send(.post, "/api/v2/books/enrich", json: ["barcode": "9780060273224"])
                #expect(limited.status == .tooManyRequests)
                let other = try await tablet.send(.post, "/api/v2/books/enrich", json: ["barcode": "9780060273224"])
                #expect(other.status == .tooManyRequests)
                // Someone else in the house has a budget of their own.
                try await WebSession(client).register("bob")
                var bobs = APIClient(client)
                try await bobs.signIn("bob@example.com")
                #expect(
                    try await bobs.send(.post, "/api/v2/books/enrich", json: ["barcode": "9780060273224"]).status == .ok
                )
            }
        }
    }
}
