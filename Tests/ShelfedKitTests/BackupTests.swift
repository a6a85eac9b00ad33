import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import ZIPFoundation

@testable import ShelfedKit

/// Full backups (taken while writes go on, restored only after every check passes) and each person's own data.
@Suite struct BackupTests {
    let root: URL
    let clock = TestClock("2026-11-20T09:00:00Z")

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A data folder with a database holding an imported Goodreads library, and media and cover files.
    func makeLibrary(in folder: URL) async throws -> AppDatabase {
        let fileManager = FileManager.default
        for sub in ["media/1", "covers"] {
            try fileManager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let db = try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path)
        let userID = try await UserStore(db: db).create(
            username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: clock.now
        ).id!
        let store = ImportStore(db: db, directory: folder.appendingPathComponent("imports"))
        let file = TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/imports/goodreads_library_export.csv")
        let staged = try await store.stage(upload: file, fileName: "f.csv", userID: userID, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: userID, existing: .update, shelfMapping: [:])
        try await ImportRunner(db: db, logger: Logger(label: "t"), now: { self.clock.now }).runUntilIdle()
        try TestImages.fixture("Landscape_6.jpg").write(to: folder.appendingPathComponent("media/1/original.jpg"))
        try Data(repeating: 7, count: 3_000).write(to: folder.appendingPathComponent("covers/abc.jpg"))
        // An upload still arriving is not part of a backup.
        try fileManager.createDirectory(
            at: folder.appendingPathComponent("media/.incoming"), withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: folder.appendingPathComponent("media/.incoming/upload"))
        return db
    }

    func count(_ table: String, in db: some DatabaseReader) throws -> Int {
        try db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    @Test func aBackupTakenWhileWritesGoOnRestoresToAConsistentVerifiedCopy() async throws {
        let live = root.appendingPathComponent("live")
        let db = try await makeLibrary(in: live)
        let before = try count("user_book", in: db.writer)
        #expect(before > 100)

        // A writer keeps adding books on shelves (each a book row and a user_book row in one transaction) while the
        // backup runs; the snapshot must hold whole transactions only.
        let writer = db.writer
        let writes = Task {
            var written = 0
            while !Task.isCancelled && written < 5_000 {
                let title = "Written during the backup \(written)"
                // Cancelling the task is how the test stops it: a write cancelled while waiting is not a failure.
                do {
                    try await writer.write { db in
                        try db.execute(
                            sql: """
                                INSERT INTO book (title, authors, source, created_at, updated_at)
                                VALUES (?, '["W"]', 'manual', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)
                                """,
                            arguments: [title])
                        try db.execute(
                            sql: """
                                INSERT INTO user_book (user_id, book_id, shelf, added_at, updated_at)
                                VALUES (1, ?, 'want_to_read', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)
                                """, arguments: [db.lastInsertedRowID])
                    }
                } catch is CancellationError {
                    break
                }
                written += 1
            }
            return written
        }
        try await Task.sleep(for: .milliseconds(20))
        let zip = root.appendingPathComponent("backup.zip")
        let manifest = try Backup.create(dataDirectory: live, to: zip, database: db.writer, now: clock.now)
        writes.cancel()
        let written = try await writes.value
        let after = try count("user_book", in: db.writer)
        #expect(written > 0)
        let saved = try #require(manifest.counts["user_book"])
        #expect(saved >= before && saved <= after)
        let booksAfter = try count("book", in: db.writer)
        #expect(manifest.counts["book"].map { $0 - saved } == booksAfter - after)
        #expect(manifest.files.map(\.path).sorted() == ["covers/abc.jpg", "media/1/original.jpg", "shelfed.sqlite"])
        #expect(try !FileManager.default.contentsOfDirectory(atPath: root.path).contains { $0.contains("partial") })
        #expect(try !FileManager.default.contentsOfDirectory(atPath: live.path).contains { $0.hasPrefix(".backup-") })

        let restored = root.appendingPathComponent("restored")
        let result = try Backup.restore(from: zip, into: restored)
        #expect(result == manifest)
        // Nothing of the restore's own scratch work is left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: restored.path).sorted() == [
                "covers", "media", "shelfed.sqlite",
            ])
        let copy = try DatabaseQueue(path: restored.appendingPathComponent("shelfed.sqlite").path)
        #expect(try count("user_book", in: copy) == saved)
        #expect(try await copy.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        #expect(try await copy.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty)
        // Every user_book row has its book: no transaction was caught half-way.
        #expect(
            try await copy.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book WHERE book_id NOT IN (SELECT id FROM book)")
            } == 0)
        for path in ["media/1/original.jpg", "covers/abc.jpg"] {
            #expect(
                try Data(contentsOf: restored.appendingPathComponent(path))
                    == Data(contentsOf: live.appendingPathComponent(path)))
        }
        #expect(!FileManager.default.fileExists(atPath: restored.appendingPathComponent("media/.incoming").path))
        // The restored database opens as the server would open it (migrations already applied, nothing to redo).
        try copy.close()
        let reopened = try AppDatabase(path: restored.appendingPathComponent("shelfed.sqlite").path)
        #expect(try count("user_book", in: reopened.writer) == saved)
    }

    @Test func restoreRefusesAFolderThatAlreadyHoldsALibrary() async throws {
        let live = root.appendingPathComponent("live")
        _ = try await makeLibrary(in: live)
        let zip = root.appendingPathComponent("backup.zip")
        try Backup.create(dataDirectory: live, to: zip)
        let target = root.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: target.appendingPathComponent("shelfed.sqlite"))
        #expect(throws: Backup.Failure.self) { try Backup.restore(from: zip, into: target) }
        #expect(try Data(contentsOf: target.appendingPathComponent("shelfed.sqlite")) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["shelfed.sqlite"])
    }

    /// Rewrites `source` into `destination`, replacing the data of entry `path` (or adding it) with `data`.
    func tamper(_ source: URL, into destination: URL, path: String, data: Data) throws {
        let original = try Archive(url: source, accessMode: .read)
        let copy = try Archive(url: destination, accessMode: .create)
        var replaced = false
        for entry in original {
            var bytes = Data()
            _ = try original.extract(entry, consumer: { bytes.append($0) })
            if entry.path == path {
                bytes = data
                replaced = true
            }
            try copy.addEntry(
                with: entry.path, type: .file, uncompressedSize: Int64(bytes.count),
                provider: { position, size in bytes.subdata(in: Int(position)..<Int(position) + size) })
        }
        if !replaced {
            try copy.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count),
                provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
        }
    }

    @Test(arguments: [
        ("media/1/original.jpg", "checksum"),
        ("shelfed.sqlite", "checksum"),
        ("../outside.txt", "manifest does not list"),
        ("media/../../outside.txt", "manifest does not list"),
    ])
    func aDamagedOrHostileBackupIsRefusedAndLeavesTheFolderEmpty(path: String, reason: String) async throws {
        let live = root.appendingPathComponent("live")
        _ = try await makeLibrary(in: live)
        let zip = root.appendingPathComponent("backup.zip")
        try Backup.create(dataDirectory: live, to: zip)
        let damaged = root.appendingPathComponent("damaged.zip")
        try tamper(zip, into: damaged, path: path, data: Data("not what was saved".utf8))
        let target = root.appendingPathComponent("target/data")
        do {
            try Backup.restore(from: damaged, into: target)
            Issue.record("a damaged backup was restored")
        } catch let failure as Backup.Failure {
            #expect(failure.description.contains(reason), "\(failure)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("outside.txt").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("target/outside.txt").path))
    }

    @Test func aFileThatIsNotABackupGetsAPlainAnswer() throws {
        let notZip = root.appendingPathComponent("notes.zip")
        try Data("hello".utf8).write(to: notZip)
        #expect {
            try Backup.restore(from: notZip, into: root.appendingPathComponent("target"))
        } throws: { error in
            (error as? Backup.Failure).map { $0.description.contains("not a Shelfed backup") } == true
        }
    }

    @Test func theServerBackupIsForTheFirstAccountAndMyDataIsEachPersonsOwn() async throws {
        let app = TestApp(clock: clock)
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bookID = try await alice.addBook(["title": "Dune", "authors": "Frank Herbert", "page_count": "412"])
            _ = try await alice.post(
                "/books/\(bookID)/review", ["rating": "4.5", "review": "Sand.", "private_notes": "Lent to Bo"])
            let upload = try await alice.upload(
                "/books/\(bookID)/photos", fields: [("page_number", "42"), ("comment", "Fear")],
                files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))])
            #expect(upload.status == .seeOther)
            _ = try await alice.post("/lists", ["name": "Desert", "description": "Sand books"])
            _ = try await alice.post("/books/\(bookID)/lists", ["list": "1"])

            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await bob.addBook(["title": "Bob's private book"])
            _ = try await bob.post("/lists", ["name": "Bob's private list"])

            // Only the first account sees and gets the whole server.
            #expect(String(buffer: try await alice.get("/profile/edit").body).contains("/profile/backup"))
            #expect(!String(buffer: try await bob.get("/profile/edit").body).contains("/profile/backup"))
            #expect(try await bob.get("/profile/backup").status == .notFound)
            let backup = try await alice.get("/profile/backup")
            #expect(backup.status == .ok)
            #expect(backup.headers[.contentType] == "application/zip")
            #expect(backup.headers[.contentDisposition]?.contains("shelfed-backup-2026-11-20.zip") == true)
            let backupFile = root.appendingPathComponent("server.zip")
            try Data(buffer: backup.body).write(to: backupFile)
            let restored = root.appendingPathComponent("restored")
            let manifest = try Backup.restore(from: backupFile, into: restored)
            #expect(manifest.counts["user"] == 2 && manifest.counts["user_book"] == 2 && manifest.counts["photo"] == 1)
            #expect(manifest.files.filter { $0.path.hasPrefix("media/") }.count == 3)  // original, display, thumbnail

            // My data: alice's books, rating, review, notes and photo — and nothing of bob's.
            let response = try await alice.get("/profile/my-data")
            #expect(response.status == .ok)
            let mine = root.appendingPathComponent("mine.zip")
            try Data(buffer: response.body).write(to: mine)
            let archive = try Archive(url: mine, accessMode: .read)
            #expect(archive.map(\.path).sorted() == ["my-data.json", "photos/1.jpg"])
            var json = Data()
            _ = try archive.extract(try #require(archive["my-data.json"]), consumer: { json.append($0) })
            let data = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(data["username"] as? String == "alice")
            let books = try #require(data["books"] as? [[String: Any]])
            #expect(books.count == 1)
            #expect(books.first?["title"] as? String == "Dune")
            #expect(books.first?["authors"] as? [String] == ["Frank Herbert"])
            #expect(books.first?["rating"] as? Double == 4.5)
            #expect(books.first?["review"] as? String == "Sand.")
            #expect(books.first?["privateNotes"] as? String == "Lent to Bo")
            #expect(books.first?["lists"] as? [String] == ["Desert"])
            let lists = try #require(data["lists"] as? [[String: Any]])
            #expect(lists.count == 1 && lists.first?["name"] as? String == "Desert")
            #expect(
                lists.first?["description"] as? String == "Sand books" && lists.first?["books"] as? [String] == ["Dune"]
            )
            let photos = try #require(data["photos"] as? [[String: Any]])
            #expect(photos.first?["pageNumber"] as? Int == 42 && photos.first?["comment"] as? String == "Fear")
            #expect(photos.first?["file"] as? String == "photos/1.jpg")
            #expect(photos.first?["storedFile"] == nil)
            var photo = Data()
            _ = try archive.extract(try #require(archive["photos/1.jpg"]), consumer: { photo.append($0) })
            #expect(photo == (try TestImages.fixture("Landscape_1.jpg")))
            #expect(!String(decoding: json, as: UTF8.self).contains("Bob's private book"))
            #expect(!String(decoding: json, as: UTF8.self).contains("Bob's private list"))

            let bobsData = try await bob.get("/profile/my-data")
            let bobs = root.appendingPathComponent("bobs.zip")
            try Data(buffer: bobsData.body).write(to: bobs)
            var bobJSON = Data()
            let bobArchive = try Archive(url: bobs, accessMode: .read)
            _ = try bobArchive.extract(try #require(bobArchive["my-data.json"]), consumer: { bobJSON.append($0) })
            let bobText = String(decoding: bobJSON, as: UTF8.self)
            #expect(bobText.contains("Bob's private book") && !bobText.contains("Dune") && !bobText.contains("Fear"))
            #expect(bobArchive.map(\.path) == ["my-data.json"])
        }
    }
}
