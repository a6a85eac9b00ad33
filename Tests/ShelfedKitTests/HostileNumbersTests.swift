import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Finding 2 of issue 9 (one GET trapped the server) and the number rules of DESIGN §13.
@Suite("Hostile numbers")
struct HostileNumbersTests {
    @Test(
        "only ASCII digits within bounds are numbers",
        arguments: [
            ("42", 42), ("0042", 42), ("+1", nil), ("-1", nil), ("1e3", nil), (" 7", nil), ("٣", nil), ("", nil),
            ("9223372036854775807", nil), ("10001", nil), ("10000", 10000),
        ] as [(String, Int?)])
    func parse(text: String, expected: Int?) {
        #expect(BoundedNumber.parse(text, in: BoundedNumber.listPage) == expected)
    }

    @Test(
        "huge page numbers answer the first page instead of trapping",
        arguments: [
            "/shelves/want-to-read?page=9223372036854775807", "/shelves?page=153722867280912931",
            "/favourites?page=9223372036854775807", "/shelves?page=-1", "/shelves?page=%D9%A3",
        ])
    func hugePage(path: String) async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            _ = try await web.addBook(["title": "Dune"])
            let response = try await web.get(path)
            #expect(response.status == .ok)
            #expect(try await web.get("/health").status == .ok)
        }
    }

    @Test("a huge start on a cached ISBN search answers the page instead of trapping")
    func hugeSearchStart() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                #expect(try await web.get("/search?q=9780140446043").status == .ok)
                let again = try await web.get("/search?q=9780140446043&start=9223372036854775807")
                #expect(again.status == .ok)
                #expect(again.text.contains("The Complete Essays"))
            }
        }
    }

    @Test("provider page counts near Int64.max cannot crash the profile, and are not summed")
    func hugeProviderPageCount() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let first = try await web.addBook(["title": "Huge One", "page_count": "300"])
            let second = try await web.addBook(["title": "Huge Two", "page_count": "200"])
            for id in [first, second] {
                _ = try await web.post("/books/\(id)/shelf", ["shelf": "read"])
            }
            // What a publicly editable Open Library record could hold, written straight to the database.
            try await app.database().writer.write { db in
                try db.execute(
                    sql: "UPDATE book SET page_count = ? WHERE id IN (?, ?)",
                    arguments: [Int64.max - 1, first, second])
            }
            let profile = try await web.get("/profile")
            #expect(profile.status == .ok)
            #expect(try await web.get("/profile?year=2026").status == .ok)
            #expect(!profile.text.contains("9223372036854775806"))
        }
    }

    @Test("provider answers with absurd page counts are stored as unknown")
    func providerBounds() {
        var volume = VolumeResult(provider: .googleBooks, title: "Huge", authors: [], categories: [])
        volume.pageCount = Int.max
        #expect(NewBook(volume).pageCount == nil)
        volume.pageCount = 320
        #expect(NewBook(volume).pageCount == 320)
    }

    @Test(
        "dates must be ASCII digits: +024-+1-+1 and friends are refused",
        arguments: [
            "+024-+1-+1", "2024-+1-01", "٢٠٢٤-01-01", "2024-1-01", "0000-01-01", "2024-02-30",
        ])
    func dates(date: String) async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Dune"])
            let response = try await web.post("/books/\(id)/dates", ["started_at": date])
            #expect(response.status == .unprocessableContent)
            #expect(!CalendarDate.isValidDay(date))
        }
    }

    @Test("search text is capped before it reaches a provider, and volume ids must look like volume ids")
    func searchInputCaps() async throws {
        let long = SearchRequest(text: String(repeating: "é", count: 1_000_000))
        #expect(long.text.unicodeScalars.count == SearchRequest.maxTextLength)
        let zalgo = SearchRequest(text: "a" + String(repeating: "\u{301}", count: 10_000))
        #expect(zalgo.text.unicodeScalars.count == SearchRequest.maxTextLength)
        #expect(SearchRequest.isVolumeID("0yNhEAAAQBAJ"))
        #expect(!SearchRequest.isVolumeID("../volumes?q=x"))
        #expect(!SearchRequest.isVolumeID(String(repeating: "a", count: 41)))
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                #expect(try await web.get("/search/volumes/a%2F..%2Fx").status == .notFound)
                _ = try await web.get("/search?q=" + String(repeating: "b", count: 5000))
                let sent = try #require(fake.googleRequests.last)
                #expect(sent.count < 400, "the provider got \(sent.count) characters")
            }
        }
    }

    @Test("a provider's 4xx caused by our request never opens the circuit breaker")
    func ourRequestsDoNotTripTheBreaker() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                for attempt in 0..<6 {
                    fake.failGoogle(.status(400))
                    _ = try await web.get("/search?q=too+long+\(attempt)")
                }
                let after = try await web.get("/search?q=batman")
                #expect(after.status == .ok)
                #expect(after.text.contains("Batman"))
            }
        }
        #expect(!UpstreamFailure.refused(status: 400).countsAsFailure)
        #expect(UpstreamFailure.refused(status: 403).countsAsFailure)
    }
}
