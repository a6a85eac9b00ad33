import AsyncHTTPClient
import Foundation
import Testing

@testable import ShelfedKit

/// `shelfed doctor` and `/health?detail=1` (issue 26): a healthy server passes; a corrupt database, a missing OCR
/// language, a damaged model and an unreachable provider each fail with the right advice.
@Suite(.serialized) struct DoctorTests {
    static let model = TestApp.packageRoot.appendingPathComponent("models/all-MiniLM-L6-v2")

    /// A data folder with a database and a recent good backup, and settings pointing at `fake`.
    private func healthyConfig(_ fake: FakeBooksServer) async throws -> AppConfig {
        var config = TestApp(search: fake.settings()).config
        config.modelDirectory = Self.model
        config.ocrLanguages = "eng"
        try FileManager.default.createDirectory(at: config.dataDirectory, withIntermediateDirectories: true)
        let database = try AppDatabase(path: config.databasePath)
        let now = config.clock.now()
        try await BackupRuns(db: database).record(
            .init(startedAt: now, finishedAt: now, file: "shelfed-x.zip", bytes: 1_000, error: nil))
        return config
    }

    /// A client that waits three minutes to connect: the server's own gives up after two seconds, and under the full
    /// parallel run even a connection to 127.0.0.1 has waited longer than that for a free core (CI, twice; a local
    /// full run once more with a minute).
    private static let patientHTTP: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(180), read: .seconds(180))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// A doctor with three minutes for each provider: under the full parallel run the fake can take longer than
    /// five seconds to answer, which is the machine's load, not a fault.
    private func doctor(_ config: AppConfig) -> Doctor {
        var doctor = Doctor(config: config, http: Self.patientHTTP)
        doctor.providerWait = .seconds(180)
        return doctor
    }

    private func check(_ name: String, in checks: [Doctor.Check]) -> Doctor.Check? {
        checks.first { $0.name == name }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: model.path), "the model is fetched by `make model`"))
    func aHealthyServerPassesAndEachFaultIsNamedWithItsFix() async throws {
        try await FakeBooksServer.run { fake in
            let config = try await healthyConfig(fake)
            defer { try? FileManager.default.removeItem(at: config.dataDirectory) }
            let healthy = await doctor(config).run()
            #expect(Doctor.exitCode(healthy) == 0, "\(Doctor.report(healthy))")
            for name in [
                "Database", "Meaning model", "Reading photos (OCR)", "Google Books", "Open Library", "Backups",
            ] {
                #expect(check(name, in: healthy)?.status == .ok, "\(name): \(Doctor.report(healthy))")
            }

            var missingLanguage = config
            missingLanguage.ocrLanguages = "eng+zzz"
            let ocr = check("Reading photos (OCR)", in: await doctor(missingLanguage).run())
            #expect(ocr?.status == .problem && ocr?.fix == "sudo apt install tesseract-ocr-zzz")

            var unreachable = config
            unreachable.search.googleBooksURL = "http://127.0.0.1:9/books/v1"
            let unreached = await doctor(unreachable).run()
            #expect(check("Google Books", in: unreached)?.status == .problem)
            #expect(check("Google Books", in: unreached)?.fix?.contains("internet connection") == true)
            #expect(Doctor.exitCode(unreached) == 1)

            // A damaged copy of the model.
            let damaged = config.dataDirectory.appendingPathComponent("model")
            try FileManager.default.copyItem(at: Self.model, to: damaged)
            let weights = try FileHandle(forWritingTo: damaged.appendingPathComponent("model.safetensors"))
            try weights.seek(toOffset: 4_096)
            try weights.write(contentsOf: Data(repeating: 0xFF, count: 64))
            try weights.close()
            var damagedModel = config
            damagedModel.modelDirectory = damaged
            let model = check("Meaning model", in: await doctor(damagedModel).run())
            #expect(model?.status == .problem && model?.fix?.contains("fetch-model.sh") == true)

            // A database overwritten with rubbish.
            try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: config.databasePath))
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: config.databasePath + suffix) }
            let corrupt = check("Database", in: await doctor(config).run())
            #expect(corrupt?.status == .problem && corrupt?.fix?.contains("shelfed restore") == true)
        }
    }

    @Test func theAdminGetsTheChecksAsJSONAndNobodyElseDoes() async throws {
        try await TestApp().run { client in
            #expect(try await client.execute(uri: "/health", method: .get).text == "ok")
            #expect(try await client.execute(uri: "/health?detail=1", method: .get).status == .notFound)
            let admin = WebSession(client)
            try await admin.register("alice")
            let member = WebSession(client)
            try await member.register("bob")
            #expect(try await member.get("/health?detail=1").status == .notFound)
            let report = try await admin.get("/health?detail=1")
            let checks = try #require(report.json?["checks"] as? [[String: Any]])
            #expect(checks.contains { $0["name"] as? String == "Database" && $0["status"] as? String == "ok" })
            #expect(
                checks.contains {
                    $0["name"] as? String == "Memory" && ($0["detail"] as? String)?.contains("MB") == true
                })
            // The tests' providers are not there: the report says so, with the status that says "look".
            #expect(report.status == .serviceUnavailable)
        }
    }
}
