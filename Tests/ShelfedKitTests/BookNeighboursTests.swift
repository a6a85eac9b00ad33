import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// "More like this" is found when vectors change, not on every book page (issue 35, finding 9; issue 36, part 9):
/// each book's stored list is the nearest books of the catalog, the same as working them out from scratch — after the
/// first pass, and after a vector is added, changed or removed — and the book page reads it, leaving out what the
/// person may not see. Random unit vectors, so no model is needed; the lists are checked against plain loops here.
@Suite struct BookNeighboursTests {
    /// One reader (user 1) with `books` books of random vectors, each on their Read shelf (typed by hand, hers alone, with no author, so only meaning
    /// ranks them);
    /// `add(owner: 2)` gives Sam a book from a book service, which Ada may see while Sam shares.
    struct Catalog {
        let db: AppDatabase
        var vectors: [Int64: [Float]] = [:]
        /// A small linear congruential generator: the same catalog on every run.
        var seed: UInt64 = 36

        init(books: Int) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alike-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            db = try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path)
            try db.writer.write { db in
                for (id, name) in [(1, "ada"), (2, "sam")] {
                    try db.execute(
                        sql: """
                            INSERT INTO user (id, username, email, display_name, password_hash, created_at)
                            VALUES (?, ?, ?, ?, 'x', '2026-01-01 00:00:00')
                            """, arguments: [id, name, "\(name)@example.com", name.capitalized])
                }
            }
            for number in 0..<books { try add("Book \(number)") }
        }

        /// A unit vector around one theme (cosines near 0.5, as books on one subject have), stored as float16 and
        /// read back, so the test works with what the database holds.
        mutating func randomVector() -> [Float] {
            var values = (0..<TextEmbedder.dimensions).map { _ in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(seed >> 40) / Float(1 << 24) * 2 - 1
            }
            values[0] += 12
            let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return MeaningVector.decode(MeaningVector.encode(values.map { $0 / norm }))!
        }

        @discardableResult
        mutating func add(_ title: String, owner: Int64 = 1) throws -> Int64 {
            let vector = randomVector()
            let id = try db.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id)
                        VALUES (?, ?, '[]', 'manual', '2026-01-01', '2026-01-01', ?)
                        """, arguments: [title, "[]", owner == 1 ? 1 : nil])
                let book = db.lastInsertedRowID
                try db.execute(
                    sql: """
                        INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at)
                        VALUES (?, ?, 'read', 0, '2026-01-01', '2026-01-01')
                        """, arguments: [owner, book])
                try db.execute(
                    sql: """
                        INSERT INTO book_embedding (book_id, model, vector, embedded_at) VALUES (?, ?, ?, '2026-01-01')
                        """,
                    arguments: [book, TextEmbedder.modelID, MeaningVector.encode(vector)])
                return book
            }
            vectors[id] = vector
            return id
        }

        mutating func changeVector(of bookID: Int64) throws {
            let vector = randomVector()
            try db.writer.write { db in
                try db.execute(
                    sql: "UPDATE book_embedding SET vector = ? WHERE book_id = ?",
                    arguments: [MeaningVector.encode(vector), bookID])
            }
            vectors[bookID] = vector
        }

        mutating func removeVector(of bookID: Int64) throws {
            try db.writer.write { db in
                try db.execute(sql: "DELETE FROM book_embedding WHERE book_id = ?", arguments: [bookID])
            }
            vectors[bookID] = nil
        }

        /// The nearest books to `bookID` by plain loops, nearest first, ties by id.
        func expectedNeighbours(of bookID: Int64) -> [Int64] {
            let own = vectors[bookID]!
            var cosines: [(id: Int64, cosine: Float)] = []
            for (id, vector) in vectors where id != bookID {
                var sum: Float = 0
                for index in own.indices { sum += own[index] * vector[index] }
                cosines.append((id, sum))
            }
            return cosines.sorted { $0.cosine != $1.cosine ? $0.cosine > $1.cosine : $0.id < $1.id }
                .prefix(BookNeighbours.count).map(\.id)
        }

        func storedNeighbours(of bookID: Int64) throws -> [Int64]? {
            try db.writer.read { db in try BookNeighbours.stored(for: bookID, db)?.map(\.bookID) }
        }

        func pending() throws -> Int {
            try db.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_neighbours_pending") ?? -1 }
        }

        /// Every stored list against the plain loops. Float32 sums in another order can swap two books whose cosines
        /// differ in the last bits, so the lists are compared as sets of all but the last few, and the first exactly.
        func expectListsMatchFromScratch(_ comment: Comment) throws {
            for bookID in vectors.keys.sorted() {
                let stored = try #require(try storedNeighbours(of: bookID), comment)
                let expected = expectedNeighbours(of: bookID)
                #expect(stored.count == expected.count, comment)
                #expect(stored.first == expected.first, comment)
                #expect(Set(stored.prefix(40)).isSubset(of: Set(expected)), comment)
                #expect(Set(expected.prefix(40)).isSubset(of: Set(stored)), comment)
            }
        }
    }

    @Test func theFirstPassStoresEachBooksNearestAndEmptiesTheQueue() async throws {
        let catalog = try Catalog(books: 90)
        #expect(try catalog.pending() == 90)
        #expect(try catalog.storedNeighbours(of: 1) == nil)
        try await BookNeighbours(db: catalog.db).update()
        #expect(try catalog.pending() == 0)
        try catalog.expectListsMatchFromScratch("after the first pass")
    }

    @Test func aVectorAddedChangedOrRemovedLeavesEveryListAsIfMadeFromScratch() async throws {
        var catalog = try Catalog(books: 80)
        let neighbours = BookNeighbours(db: catalog.db)
        try await neighbours.update()
        // Ten new books: each gets its list and joins the lists it now belongs in.
        for number in 0..<10 { try catalog.add("New \(number)") }
        #expect(try catalog.pending() == 10)
        #expect(try catalog.storedNeighbours(of: 81) == nil, "a book in the queue is found live")
        try await neighbours.update()
        try catalog.expectListsMatchFromScratch("after ten books were added")
        // A changed vector: it leaves lists it no longer belongs in, and enters others.
        try catalog.changeVector(of: 5)
        try catalog.changeVector(of: 40)
        try await neighbours.update()
        try catalog.expectListsMatchFromScratch("after two vectors changed")
        // A removed vector (its text changed, or the book left every shelf): no list names it, and its own list goes.
        let named = try #require(try catalog.storedNeighbours(of: 1)?.first)
        try catalog.removeVector(of: named)
        try await neighbours.update()
        let gone = try await catalog.db.read { db in
            try Data.fetchOne(db, sql: "SELECT neighbours FROM book_neighbours WHERE book_id = ?", arguments: [named])
        }
        #expect(gone == nil)
        try catalog.expectListsMatchFromScratch("after a vector was removed")
        for bookID in catalog.vectors.keys {
            #expect(try !(catalog.storedNeighbours(of: bookID) ?? []).contains(named))
        }
    }

    @Test func aBookTouchedDuringAPassStaysInTheQueue() async throws {
        var catalog = try Catalog(books: 12)
        let snapshot = try await catalog.db.read { db in try BookNeighbours.Snapshot(db) }
        try catalog.changeVector(of: 3)
        let changes = BookNeighbours.changes(from: snapshot)
        try await catalog.db.write { db in try BookNeighbours.store(changes, from: snapshot, db) }
        #expect(try catalog.pending() == 1, "the vector changed after the snapshot: its list is made again")
        #expect(try catalog.storedNeighbours(of: 3) == nil)
        #expect(try catalog.storedNeighbours(of: 4) != nil)
    }

    @Test func aSmallCatalogListsEveryOtherBookAndGrows() async throws {
        var catalog = try Catalog(books: 3)
        let neighbours = BookNeighbours(db: catalog.db)
        try await neighbours.update()
        #expect(try catalog.storedNeighbours(of: 1)?.sorted() == [2, 3])
        try catalog.add("Fourth")
        try await neighbours.update()
        #expect(try catalog.storedNeighbours(of: 1)?.sorted() == [2, 3, 4])
    }

    @Test func theStoredFormReadsBackAndRejectsBrokenBlobs() {
        let list = [BookNeighbours.Neighbour(bookID: 7, cosine: 0.5), .init(bookID: 1 << 40, cosine: -0.25)]
        #expect(BookNeighbours.decode(BookNeighbours.encode(list)) == list)
        #expect(BookNeighbours.decode(Data([1, 2, 3])) == nil)
        #expect(BookNeighbours.decode(nil) == nil)
    }

    /// The book page from the stored list gives what the live search gives, leaves out a housemate's books while
    /// they do not share, and searches live when the list holds too few books the person may see.
    @Test func moreLikeThisReadsTheListAndKeepsWhatThePersonMayNotSeeOut() async throws {
        var catalog = try Catalog(books: 30)
        for number in 0..<60 { try catalog.add("Sam's \(number)", owner: 2) }
        let similar = SimilarBooks(db: catalog.db)
        func like() async throws -> [Int64] {
            try #require(try await similar.like(bookID: 1, userID: 1, limit: 8)).map { $0.book.id! }
        }
        func setList(_ ids: [Int64]) async throws {
            try await catalog.db.write { db in
                try db.execute(
                    sql: "UPDATE book_neighbours SET neighbours = ? WHERE book_id = 1",
                    arguments: [BookNeighbours.encode(ids.map { .init(bookID: $0, cosine: 0.5) })])
            }
        }
        let live = try await like()
        #expect(live.count == 8)
        try await BookNeighbours(db: catalog.db).update()
        #expect(try catalog.storedNeighbours(of: 1)?.count == BookNeighbours.count)
        #expect(try await like() == live)
        #expect(live.allSatisfy { $0 <= 30 }, "Sam does not share")
        // Proof that the list is read: a short one, written by hand, is all the page looks at.
        try await setList(Array(20...25))
        #expect(Set(try await like()) == Set(20...25))
        // A full list of Sam's books: nothing in it Ada may see, so the page searches what she may.
        try await setList(Array(31...(30 + Int64(BookNeighbours.count))))
        #expect(try await like() == live)
        // Sam shares: his books come up from the list as they would live.
        try await catalog.db.write { db in
            try db.execute(sql: "UPDATE user SET shares_reading = 1 WHERE id = 2")
            try db.execute(sql: "INSERT INTO book_neighbours_pending (book_id) VALUES (1)")
        }
        let liveShared = try await like()
        #expect(liveShared.contains { $0 > 30 }, "\(liveShared)")
        try await BookNeighbours(db: catalog.db).update()
        #expect(try catalog.storedNeighbours(of: 1) != nil)
        #expect(try await like() == liveShared)
    }

    /// The few books of a list are looked up by id and checked one by one: reading the books by owner (every book
    /// of a 5,000-book library) made the book page grow with the library.
    @Test func aListOfBooksIsCheckedBookByBookNotByReadingTheirOwnersBooks() async throws {
        let catalog = try Catalog(books: 2)
        let plan = try await catalog.db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT book.id FROM book
                    WHERE book.id IN (SELECT value FROM json_each(?)) AND \(CatalogVisibility.rowClause)
                    """, arguments: ["[1,2]"] + CatalogVisibility.arguments(1)
            ).map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("SEARCH book USING INTEGER PRIMARY KEY"), "\(plan)")
        #expect(!plan.contains("book_owner"), "\(plan)")
    }

    @Test func alsoByFindsAnAuthorsBooksThroughTheKeyIndex() async throws {
        let catalog = try Catalog(books: 2)
        let plan = try await catalog.db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT book_id FROM book_author
                    WHERE replace(replace(lower(book_author.name), ' ', ''), '.', '') IN (?)
                    """, arguments: ["jkrowling"]
            ).map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("book_author_by_key"), "\(plan)")
    }
}
