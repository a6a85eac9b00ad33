import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// No shelf move destroys a reading date (issue 20): every move between the three shelves, on the web and through
/// the API, keeps each date the person had — on the book, or as an earlier read — and undoing a move the same day
/// gives the dates back.
@Suite struct ShelfMoveTests {
    static let today = "2026-03-15"
    static let started = "2024-01-03"
    static let finished = "2024-02-01"

    /// The dates on the book and in its kept reads.
    static func dates(of bookID: Int64, _ db: AppDatabase) async throws -> (entry: UserBook, kept: [ReadThrough]) {
        try await db.read { db in
            let entry = try #require(try UserBook.filter(Column("book_id") == bookID).fetchOne(db))
            return (entry, try ReadThroughRow.all(of: entry.id!, db))
        }
    }

    /// Whether `date` is still somewhere: on the book or in a kept read.
    static func keeps(_ date: String, _ state: (entry: UserBook, kept: [ReadThrough])) -> Bool {
        [state.entry.startedAt, state.entry.finishedAt].contains(date)
            || state.kept.contains { $0.startedOn == date || $0.finishedOn == date }
    }

    /// Sets up a book on `shelf` with the dates a person would have there.
    static func book(on shelf: Shelf, _ web: WebSession, title: String) async throws -> Int64 {
        let id = try await web.addBook(["title": title, "shelf": shelf.rawValue])
        let finished = shelf == .reading || shelf == .didNotFinish ? "" : Self.finished
        let dated = try await web.post("/books/\(id)/dates", ["started_at": Self.started, "finished_at": finished])
        #expect(dated.status == .seeOther)
        return id
    }

    @Test(arguments: [false, true])
    func everyMoveKeepsEveryDate(throughAPI: Bool) async throws {
        let app = TestApp(clock: TestClock("2026-03-15T10:00:00Z"))
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("ada")
            var api = APIClient(client)
            try await api.signIn("ada@example.com")
            let db = try app.database()
            func move(_ id: Int64, to shelf: Shelf) async throws {
                let response =
                    throughAPI
                    ? try await api.send(.patch, "/api/v1/books/\(id)", json: ["shelf_id": shelf.readerID])
                    : try await web.post("/books/\(id)/shelf", ["shelf": shelf.rawValue])
                #expect([200, 303].contains(response.status.code), "\(response.status)")
            }
            for from in Shelf.allCases {
                for to in Shelf.allCases where to != from {
                    // setup
                    let id = try await Self.book(on: from, web, title: "\(from.rawValue) to \(to.rawValue)")
                    let before = try await Self.dates(of: id, db)
                    let had = [before.entry.startedAt, before.entry.finishedAt].compactMap { $0 }
                    // act
                    try await move(id, to: to)
                    // validate: nothing lost, and the book is where it was sent
                    let after = try await Self.dates(of: id, db)
                    #expect(after.entry.shelf == to)
                    for date in had { #expect(Self.keeps(date, after), "\(from) → \(to) lost \(date)") }
                    // and back again: still nothing lost
                    try await move(id, to: from)
                    let back = try await Self.dates(of: id, db)
                    for date in had { #expect(Self.keeps(date, back), "\(from) → \(to) → \(from) lost \(date)") }
                    if from != .wantToRead {
                        #expect(
                            back.entry.startedAt == before.entry.startedAt
                                && back.entry.finishedAt == before.entry.finishedAt,
                            "\(from) → \(to) → \(from) today should give the dates back")
                    }
                }
            }
        }
    }

    @Test func aReReadKeepsTheFirstReadAndTheBookPageShowsIt() async throws {
        let clock = TestClock("2026-03-15T10:00:00Z")
        let app = TestApp(clock: clock)
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("ada")
            let id = try await Self.book(on: .read, web, title: "Middlemarch")
            // Read again, days later: a new read starts, the first is kept and shown.
            _ = try await web.post("/books/\(id)/shelf", ["shelf": Shelf.reading.rawValue])
            clock.advance(by: 86_400 * 10)
            _ = try await web.post("/books/\(id)/shelf", ["shelf": Shelf.read.rawValue])
            let state = try await Self.dates(of: id, try app.database())
            #expect(state.entry.startedAt == Self.today && state.entry.finishedAt == "2026-03-25")
            #expect(state.kept == [ReadThrough(startedOn: Self.started, finishedOn: Self.finished)])
            let page = try await web.get("/books/\(id)")
            #expect(page.text.contains("Earlier reads"))
            #expect(
                page.text.contains(
                    #"Started <time datetime="\#(Self.started)">\#(Self.started)</time>, finished "#
                        + #"<time datetime="\#(Self.finished)">\#(Self.finished)</time>"#))
        }
    }

    @Test func aRefusedChangeKeepsNoRead() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("ada")
            var api = APIClient(client)
            try await api.signIn("ada@example.com")
            let id = try await Self.book(on: .read, web, title: "Beloved")
            let refused = try await api.send(.patch, "/api/v1/books/\(id)", json: ["shelf_id": 1, "rating": 7])
            #expect(refused.status.code == 422)
            let kept = try await app.database().read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM read_through") ?? -1
            }
            #expect(kept == 0)
            #expect(try await Self.dates(of: id, try app.database()).entry.shelf == .read)
        }
    }
}
