import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization

@testable import ShelfedKit

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: String = "2026-03-15T10:00:00Z") {
        current = Mutex(ISO8601DateFormatter().date(from: start)!)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var appClock: AppClock {
        AppClock(timeZone: TimeZone(identifier: "UTC")!, now: { self.now })
    }
}

/// Builds the real application on a fresh temporary data directory.
struct TestApp {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    var config: AppConfig
    let clock: TestClock

    init(
        registration: AppConfig.Registration = .open, secureCookies: Bool = false, clock: TestClock = TestClock(),
        maxUploadBytes: Int = 25 * 1_048_576, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        search: SearchSettings = SearchSettings(
            googleBooksURL: "http://127.0.0.1:9/books/v1", openLibraryURL: "http://127.0.0.1:9")
    ) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shelfed-tests-\(UUID().uuidString)")
        self.clock = clock
        // bcrypt's minimum cost keeps the suites fast; production uses AppConfig's default.
        config = AppConfig(
            dataDirectory: directory, registration: registration, secureCookies: secureCookies, bcryptCost: 4,
            resourcesDirectory: Self.packageRoot, logLevel: "error",
            clock: AppClock(timeZone: timeZone, now: { clock.now }), search: search,
            maxUploadBytes: maxUploadBytes)
        // tesseract in every app of a parallel run would starve the timing-sensitive suites of CPU; the suites
        // that test reading run a reader of their own.
        config.ocrWorkers = 0
        // A live test keeps one connection and does not reconnect. In a full run on two cores a test can wait
        // minutes between two requests for a thread, and the server's 30 s limit on a connection waiting for its next
        // request closed it meanwhile (CI: "I/O on closed channel"). The Python hostile suite tests the limit itself.
        config.requestTimeout = 600
        // For the same reason: a kept answer the suites check is not let go while a test waits for a thread.
        config.memoLifetime = .seconds(3600)
        // Page to screen asks Wikidata about every film and show added; the suites that test it turn it on.
        config.findsAdaptations = false
        // Matching imported films asks the providers too; its own suite turns it on.
        config.matchesImportedTitles = false
        // Film and show providers stay on this machine too: nothing listens on port 9.
        if !config.search.tmdbURL.hasPrefix("http://127.0.0.1") {
            config.search = config.search.pointingFilmsAndShows(at: "http://127.0.0.1:9", token: search.tmdbToken)
        }
    }

    /// Runs `body` against the router (or a live server on 127.0.0.1, `PatientLiveServer`), then deletes the data
    /// directory.
    /// `keepingData`: the data directory is left for a second run (a restart), which deletes it.
    func run<Value: Sendable>(
        live: Bool = false, keepingData: Bool = false, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        defer { if !keepingData { try? FileManager.default.removeItem(at: config.dataDirectory) } }
        var config = self.config
        if live { config.port = 0 }
        let app = try await buildApplication(config: config)
        return live ? try await PatientLiveServer.run(app, body) : try await app.test(.router, body)
    }

    /// Files left in the media folder's `.incoming/` (must be none once a request has finished).
    func incomingFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(
            atPath: config.mediaDirectory.appendingPathComponent(".incoming").path)) ?? []
    }

    /// Every file under the media folder, relative to it, `.incoming/` excluded.
    func mediaFiles() -> [String] {
        let root = config.mediaDirectory
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { !$0.hasDirectoryPath }.map { $0.path.replacingOccurrences(of: root.path + "/", with: "") }
            .filter { !$0.hasPrefix(".incoming") && !$0.hasPrefix(".reading") }.sorted()
    }

    /// A second connection to the same database file, for setting up and checking rows.
    func database() throws -> AppDatabase {
        try AppDatabase(path: config.databasePath)
    }
}
