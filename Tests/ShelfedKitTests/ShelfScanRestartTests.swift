import Foundation
import GRDB
import Logging
import Testing

@testable import ShelfedKit

/// A shelf scan is background work like any other: one cut off by a restart is queued again and finishes.
extension ShelfScanTests {
    @Test func aScanCutOffByARestartRunsAgainToTheEnd() async throws {
        try await FakeBooksServer.run { fake in
            // setup: a scan queued and taken, then the server "stops" in the middle of it
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
            let id = try await service.start(try TestImages.fixture("Landscape_1.jpg"), for: user.id!)
            #expect(try await service.scan(id: id, of: user.id!)?.status == "queued")
            let before = ShelfScanWorker(service: service)
            #expect(try await before.next() == id)
            #expect(try await service.scan(id: id, of: user.id!)?.status == "running")

            // act: the next start puts it back in the queue, and the queue runs it
            let after = ShelfScanWorker(service: service)
            try await after.recover()
            #expect(try await service.scan(id: id, of: user.id!)?.status == "queued")
            let claimed = try #require(try await after.next())
            try await after.run(claimed)

            // validate
            let scan = try #require(try await service.scan(id: id, of: user.id!))
            #expect(scan.status == "done" && !scan.matches.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: service.photo(of: id).path))
            #expect(try await after.next() == nil)
        }
    }
}
