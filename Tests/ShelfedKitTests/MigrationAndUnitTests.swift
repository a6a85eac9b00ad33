import Foundation
import GRDB
import Testing

@testable import ShelfedKit

@Suite("Database migrations")
struct MigrationTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("shelfed-migrate-\(UUID().uuidString).sqlite")
            .path
    }

    @Test("an empty database gets every migration and the expected tables")
    func emptyDatabase() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try AppDatabase(path: path)
        #expect(try database.appliedMigrations() == AppDatabase.migrator.migrations)
        #expect(
            AppDatabase.migrator.migrations.starts(with: [
                "v1 accounts and sessions", "v1 library", "v2 search cache", "v3 photos",
            ]))
        let tables = try database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        for table in ["book", "book_author", "photo", "search_cache", "session", "user", "user_book"] {
            #expect(tables.contains(table))
        }
    }

    @Test("an existing database at an older version is brought up to date and keeps its rows")
    func existingDatabase() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v1 accounts and sessions")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO user (username, email, display_name, password_hash, created_at)
                        VALUES ('alice', 'a@example.com', 'Alice', 'x', '2024-01-01 00:00:00')
                        """)
            }
        }
        let database = try AppDatabase(path: path)
        #expect(try database.appliedMigrations() == AppDatabase.migrator.migrations)
        #expect(try database.writer.read { db in try User.fetchOne(db)?.username } == "alice")
        // Opening again is a no-op.
        #expect(try AppDatabase(path: path).appliedMigrations() == AppDatabase.migrator.migrations)
    }
}

@Suite("ISBN")
struct ISBNTests {
    @Test(
        "valid ISBN-10s become ISBN-13s and keep their ISBN-10",
        arguments: [
            ("0-441-17271-7", "9780441172719", "0441172717"),
            ("080442957X", "9780804429573", "080442957X"),
            ("0 14 044604 4", "9780140446043", "0140446044"),
        ])
    func isbn10(input: String, isbn13: String, isbn10: String) throws {
        let isbn = try #require(ISBN(input))
        #expect(isbn.isbn13 == isbn13)
        #expect(isbn.isbn10 == isbn10)
    }

    @Test("ISBN-13s with 978 get an ISBN-10; 979 ones have none")
    func isbn13() throws {
        #expect(ISBN("978-3-551-55167-2")?.isbn10 == "3551551677")
        #expect(ISBN("9791032305690")?.isbn10 == nil)
        #expect(ISBN("9791032305690")?.isbn13 == "9791032305690")
    }

    @Test(
        "wrong checksums, lengths and letters are rejected",
        arguments: [
            "0441172718", "9780441172710", "12345", "97804411727191", "04411727X7", "abcdefghij", "",
        ])
    func invalid(input: String) {
        #expect(ISBN(input) == nil)
    }
}
