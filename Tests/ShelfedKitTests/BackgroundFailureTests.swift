import Foundation
import GRDB
import Logging
import Testing

@testable import ShelfedKit

/// The queue's retry policy with real workers over a real SQLite file: work whose writes keep failing stops after
/// its tries and says why on its row; two loops never claim the same piece.
extension ImportJobTests {
    @Test func anImportWhoseWritesKeepFailingStopsAfterItsTriesAndSaysWhy() async throws {
        // setup: a library that refuses every new entry (as a full disk or a broken database would)
        let me = try await user("ada")
        let other = try await user("bo")
        try await db.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_entries BEFORE INSERT ON user_book WHEN NEW.user_id = \(me)
                    BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END
                    """)
        }
        let broken = try await startImport("goodreads_custom_shelf.csv", for: me)
        let fine = try await startImport("goodreads_shelves_and_lists.csv", for: other)
        let queue = BackgroundQueue(
            [runner()], logger: Logger(label: "test"), backoff: BackgroundQueueTests.quickBackoff)
        let running = Task { try await queue.run() }
        defer { running.cancel() }

        // act: wait (bounded) for both jobs to end
        var ended: (ImportJob?, ImportJob?) = (nil, nil)
        for _ in 0..<300 {
            ended = (try await store.job(id: broken.id, of: me), try await store.job(id: fine.id, of: other))
            if ended.0?.status.isRunning == false && ended.1?.status.isRunning == false { break }
            try await Task.sleep(for: .milliseconds(20))
        }

        // validate: the broken job failed with a reason and nothing half-written; the other finished beside it
        let failed = try #require(ended.0)
        #expect(failed.status == .failed)
        #expect(failed.message?.contains("tried 3 times and could not finish") == true)
        #expect(failed.message?.contains("Upload the file again") == true)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE user_id = ?", [me]) == 0)
        #expect(
            try await count("SELECT COUNT(*) FROM import_row WHERE job_id = ? AND outcome != 'pending'", [broken.id])
                == 0)
        #expect(ended.1?.status == .completed && ended.1?.created == 10)
    }
}

extension ShelfScanTests {
    @Test func twoLoopsNeverClaimTheSameScan() async throws {
        try await FakeBooksServer.run { fake in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let db = try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path)
            let clock = TestClock()
            let user = try await UserStore(db: db).create(
                username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: clock.now)
            let media = MediaStore(root: folder.appendingPathComponent("media"))
            try media.prepare()
            let search = BookSearchService(
                settings: fake.settings(), database: db, clock: clock.appClock, logger: Logger(label: "t"),
                http: { .shared })
            let service = ShelfScanService(
                gemini: GeminiClient(settings: fake.gemini(), http: { .shared }), search: search, db: db, media: media,
                processor: ImageProcessor(), logger: Logger(label: "t"), now: { clock.now }, doorbell: Doorbell())
            var queued: Set<String> = []
            for _ in 0..<6 {
                queued.insert(try await service.start(try TestImages.fixture("Landscape_1.jpg"), for: user.id!))
            }

            // act: sixteen claims at once from two workers' loops
            let workers = [ShelfScanWorker(service: service), ShelfScanWorker(service: service)]
            let claims = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<16 { group.addTask { try await workers[index % 2].next() } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }

            // validate: each scan claimed once, the rest found nothing
            let claimed = claims.compactMap { $0 }
            #expect(claimed.count == 6 && Set(claimed) == queued)
        }
    }
}
