import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// The shelf counts every shelf page shows are kept by triggers (`migrateToShelfCounts`), not counted per page: they
/// must always equal counting the entries, from the migration on and through every kind of change.
@Suite struct ShelfCountTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("counts-\(UUID().uuidString).sqlite").path
    }

    /// What counting the entries gives, per person and shelf: (books, favourites).
    static func counted(_ db: Database) throws -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT user_id, shelf, COUNT(*), SUM(favourite) FROM user_book GROUP BY user_id, shelf")
        {
            result["\(row[0] as Int64)/\(row[1] as String)"] = [row[2], row[3]]
        }
        return result
    }

    /// What the kept table says, leaving out rows that have dropped to zero.
    static func kept(_ db: Database) throws -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT user_id, shelf, books, favourites FROM shelf_count WHERE books > 0")
        {
            result["\(row[0] as Int64)/\(row[1] as String)"] = [row[2], row[3]]
        }
        return result
    }

    @Test func theMigrationCountsTheEntriesAlreadyThere() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v37 for you")
            try await old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO user (username, email, display_name, password_hash, created_at)
                        VALUES ('ada', 'ada@example.com', 'Ada', 'x', '2024-01-01 00:00:00'),
                            ('bob', 'bob@example.com', 'Bob', 'x', '2024-01-01 00:00:00');
                        INSERT INTO book (title, authors, categories, source, created_at, updated_at)
                        VALUES ('A', '[]', '[]', 'manual', '2024-01-01', '2024-01-01'),
                            ('B', '[]', '[]', 'manual', '2024-01-01', '2024-01-01'),
                            ('C', '[]', '[]', 'manual', '2024-01-01', '2024-01-01');
                        INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at)
                        VALUES (1, 1, 'read', 1, '2024-01-01', '2024-01-01'),
                            (1, 2, 'read', 0, '2024-01-01', '2024-01-01'),
                            (1, 3, 'want_to_read', 1, '2024-01-01', '2024-01-01'),
                            (2, 1, 'did_not_finish', 0, '2024-01-01', '2024-01-01');
                        """)
            }
        }
        let database = try AppDatabase(path: path)
        let kept = try await database.writer.read { try Self.kept($0) }
        #expect(kept == ["1/read": [2, 1], "1/want_to_read": [1, 1], "2/did_not_finish": [1, 0]])
        let counts = try await LibraryStore(db: database).counts(of: 1)
        #expect(counts.byShelf[.read] == 2 && counts.byShelf[.wantToRead] == 1 && counts.byShelf[.reading] == nil)
        #expect(counts.favourites == 2)
    }

    /// Inserts, moves, favourites, moves and favourites together, removals and a deleted account, at random (seeded,
    /// bounded): after each change the kept counts equal counting, and `LibraryStore.counts` says the same.
    @Test func everyChangeKeepsTheCountsEqualToCounting() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try AppDatabase(path: path)
        let shelves = Shelf.allCases.map(\.rawValue)
        try await database.writer.write { db in
            for user in 1...3 {
                try db.execute(
                    sql: """
                        INSERT INTO user (id, username, email, display_name, password_hash, created_at)
                        VALUES (?, ?, ?, 'U', 'x', '2024-01-01 00:00:00')
                        """, arguments: [user, "u\(user)", "u\(user)@example.com"])
            }
            for book in 1...40 {
                try db.execute(
                    sql: """
                        INSERT INTO book (id, title, authors, categories, source, created_at, updated_at)
                        VALUES (?, 'T', '[]', '[]', 'manual', '2024-01-01', '2024-01-01')
                        """, arguments: [book])
            }
        }
        var random = SystemRandomNumberGenerator.Seeded(seed: 36)
        for step in 0..<400 {
            let user = Int.random(in: 1...(step > 300 ? 2 : 3), using: &random)
            let book = Int.random(in: 1...40, using: &random)
            let shelf = shelves.randomElement(using: &random)!
            let favourite = Bool.random(using: &random)
            try await database.writer.write { db in
                switch step % 5 {
                case 0, 1:
                    try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at)
                            VALUES (?, ?, ?, ?, '2024-01-01', '2024-01-01')
                            """, arguments: [user, book, shelf, favourite])
                case 2:
                    try db.execute(
                        sql: "UPDATE user_book SET shelf = ? WHERE user_id = ? AND book_id <= ?",
                        arguments: [shelf, user, book])
                case 3:
                    try db.execute(
                        sql:
                            "UPDATE user_book SET favourite = ?, shelf = ?, review = 'x' WHERE user_id = ? AND book_id = ?",
                        arguments: [favourite, shelf, user, book])
                default:
                    try db.execute(
                        sql: "DELETE FROM user_book WHERE user_id = ? AND book_id % 7 = ?", arguments: [user, book % 7])
                }
                if step == 300 { try db.execute(sql: "DELETE FROM user WHERE id = 3") }
                let (kept, counted) = (try Self.kept(db), try Self.counted(db))
                #expect(kept == counted, "after step \(step)")
            }
        }
        let store = LibraryStore(db: database)
        let counts = try await store.counts(of: 1)
        let counted = try await database.writer.read { try Self.counted($0) }
        for shelf in Shelf.allCases {
            #expect(counts.byShelf[shelf] ?? 0 == counted["1/\(shelf.rawValue)"]?[0] ?? 0)
        }
        #expect(counts.favourites == Shelf.allCases.reduce(0) { $0 + (counted["1/\($1.rawValue)"]?[1] ?? 0) })
    }
}

extension SystemRandomNumberGenerator {
    /// A small seeded generator (SplitMix64), so a failing sequence is the same on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }
}
