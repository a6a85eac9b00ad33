import AsyncHTTPClient
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOEmbedded
import Testing

@testable import ShelfedKit

/// Issue 20's findings that a Swift test can show: a background loop that never sleeps, interlaced PNGs, downloads
/// that outlive their request, live streams that take every connection, and one person's batch holding everyone's.
@Suite struct TrustRoundTwoTests {
    @Test func aWakeSignalSleepsAgainAfterAnEarlyWakeUp() async throws {
        // setup: a ring wakes the waiter at once, and cancels its timer
        let signal = WakeSignal()
        signal.ring()
        await signal.wait(atMost: .seconds(30))
        // act: the cancelled timer must not leave a ring behind
        let clock = ContinuousClock()
        let started = clock.now
        await signal.wait(atMost: .milliseconds(300))
        // validate: this wait slept (on the old loop it returned at once, for ever)
        #expect(clock.now - started >= .milliseconds(250))
    }

    @Test func anInterlacedPNGIsRefusedBeforeItIsDecoded() async throws {
        let fixture = TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/interlaced-36mp.png")
        let header = try #require(PNGHeader.read(at: fixture))
        #expect(header.isInterlaced && header.width == 6000 && header.height == 6000 && header.bytesPerPixel == 3)
        #expect(header.interlacedBufferBytes + ImageProcessor.shrinkingDecodeCost > ImageProcessor.memoryBudget)
        #expect(PNGHeader.parse(Array(TestImages.png))?.interlacedBufferBytes == 0)

        var setup = TestApp()
        // The shelf scan refuses the picture before anything would be sent.
        setup.config.gemini = GeminiSettings(apiKey: "test-key", baseURL: "http://127.0.0.1:9")
        let app = setup
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await PhotoTests.setUp(web)
            let png = try Data(contentsOf: fixture)
            let photo = try await web.upload("/books/\(bookID)/photos", files: [.init(data: png)])
            #expect(photo.status == .contentTooLarge)
            #expect(photo.text.contains("interlaced PNG"))
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            for path in ["/api/v1/books/\(bookID)/photos", "/api/v1/scans/barcode", "/api/v1/scans/shelf"] {
                let answer = try await api.upload(path, files: [.init(field: "photo", data: png)])
                #expect(answer.status == .contentTooLarge, "\(path): \(answer.status)")
            }
            #expect(app.mediaFiles().isEmpty && app.incomingFiles().isEmpty)
        }
    }

    @Test func aDownloadLeavesNoFileWhetherSentOrNot() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            _ = try await web.addBook(["title": "Dune"])
            let scratch = {
                ((try? FileManager.default.contentsOfDirectory(atPath: app.config.dataDirectory.path)) ?? [])
                    .filter { $0.hasPrefix(Backup.scratchPrefix) }
            }
            for path in ["/profile/my-data", "/profile/backup"] {
                for _ in 0..<3 {
                    let head = try await web.send(path, method: .head, body: nil, contentType: nil)
                    #expect(head.status == .ok)
                }
                let whole = try await web.get(path)
                #expect(whole.status == .ok && whole.body.readableBytes > 100)
            }
            #expect(scratch().isEmpty, "left behind: \(scratch())")
        }
    }

    @Test func eachPersonHoldsAFewLiveStreamsAndGivesThemBack() throws {
        let streams = LiveStreams(total: 6)
        var held = try (0..<LiveStreams.perPerson).map { _ in try streams.ticket(for: 1, connection: EmbeddedChannel())
        }
        #expect(throws: AppError.self) { try streams.ticket(for: 1, connection: EmbeddedChannel()) }
        // Someone else still gets theirs, up to the server's total.
        let other = try streams.ticket(for: 2, connection: EmbeddedChannel())
        _ = try streams.ticket(for: 3, connection: EmbeddedChannel())  // dropped at once: its place comes back
        let third = try streams.ticket(for: 3, connection: EmbeddedChannel())
        #expect(throws: AppError.self) { try streams.ticket(for: 4, connection: EmbeddedChannel()) }
        #expect(streams.count == 6)
        held.removeLast()
        #expect(streams.count == 5)
        let again = try streams.ticket(for: 1, connection: EmbeddedChannel())
        #expect(streams.count == 6)
        withExtendedLifetime((held, other, third, again)) {}
    }

    @Test func batchEnrichJobsOfDifferentPeopleTakeTurns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("turns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path)
        let clock = TestClock()
        let users = UserStore(db: db)
        let ada = try await users.create(
            username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: clock.now
        ).id!
        let bob = try await users.create(
            username: "bob", email: "bob@example.com", displayName: "Bob", passwordHash: "x", at: clock.now
        ).id!
        let store = ImportStore(db: db, directory: folder.appendingPathComponent("imports"))
        // Not ISBNs: each is settled without asking any book service.
        let big = try await store.stageBarcodes(
            (1...100).map { "not-an-isbn-\($0)" }, userID: ada, authTokenSha256: "a", now: clock.now)
        clock.advance(by: 1)
        let small = try await store.stageBarcodes(["still-not-one"], userID: bob, authTokenSha256: "b", now: clock.now)
        let search = BookSearchService(
            settings: SearchSettings(
                googleBooksURL: "http://127.0.0.1:9/books/v1", openLibraryURL: "http://127.0.0.1:9"),
            database: db, clock: clock.appClock, logger: Logger(label: "t"), http: { OutboundHTTP.client })
        let covers = CoverStore(
            http: { OutboundHTTP.client }, directory: folder, timeout: .seconds(1), maxBytes: 1_000,
            logger: Logger(label: "t"))
        let runner = BarcodeJobRunner(
            db: db,
            books: LibraryService(store: LibraryStore(db: db), covers: covers, search: search, clock: clock.appClock),
            logger: Logger(label: "t"), now: { clock.now })
        // act: one turn each
        try await runner.runNextRow()
        // validate: Bob's one barcode did not wait for Ada's hundred
        #expect(try await store.job(id: small.id, of: bob)?.processed == 1)
        #expect(try await store.job(id: big.id, of: ada)?.processed == 1)
        try await runner.runUntilIdle()
        #expect(try await store.job(id: big.id, of: ada)?.status == .completed)
        #expect(try await store.job(id: small.id, of: bob)?.status == .completed)
    }
}

extension TrustRoundTwoTests {
    @Test func anExportWithThousandsOfColumnsIsRefusedWithAdvice() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("ada")
            let extra = (1...3_000).map { "Extra \($0)" }.joined(separator: ",")
            let csv = "Book Id,Title,Author,Exclusive Shelf,\(extra)\n1,Dune,Frank Herbert,to-read\n"
            let answer = try await web.upload(
                "/import",
                files: [.init(field: "file", filename: "wide.csv", contentType: "text/csv", data: Data(csv.utf8))])
            #expect(answer.status == .unprocessableContent)
            #expect(answer.text.contains("That file has 3004 columns"))
            #expect(answer.body.readableBytes < 200_000)
            var api = APIClient(client)
            try await api.signIn("ada@example.com")
            let viaAPI = try await api.upload(
                "/api/v2/imports",
                files: [.init(field: "file", filename: "wide.csv", contentType: "text/csv", data: Data(csv.utf8))])
            #expect(viaAPI.status == .badRequest)
        }
    }
}
