import CMemory
import Foundation
import GRDB
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Testing

@testable import ShelfedKit

/// An idle server gives back what start-up and busy moments needed (DESIGN §11, issues 23 and 26).
@Suite struct IdleMemoryTests {
    /// A field of /proc/self/status, in KiB.
    private static func status(_ field: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    private static func temporaryDatabase() throws -> (URL, AppDatabase) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path))
    }

    /// The address range of this test program's machine code (its executable mapping).
    private static func programCode() throws -> (start: UInt, end: UInt) {
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let line = try #require(
            maps.split(separator: "\n").first { $0.hasSuffix(program) && $0.split(separator: " ")[1] == "r-xp" })
        let range = line.split(separator: " ")[0].split(separator: "-")
        return (try #require(UInt(range[0], radix: 16)), try #require(UInt(range[1], radix: 16)))
    }

    @Test func theProgramsCleanPagesLeaveTheProcessAndComeBackWhenRun() throws {
        // Other tests run beside this one and give memory back too (every live test server does at start), so the
        // test makes 8 MiB of its own code resident first by reading it, and tries again if another release got
        // there in between.
        let code = try Self.programCode()
        let touched = min(Int(code.end - code.start), 8 << 20)
        var results: [(dropped: Int, before: Int, after: Int)] = []
        for _ in 0..<3 {
            var sum: UInt8 = 0
            for offset in stride(from: 0, to: touched, by: 4096) {
                sum &+= UnsafeRawPointer(bitPattern: code.start + UInt(offset))!.load(as: UInt8.self)
            }
            let before = try Self.status("RssFile")
            let dropped = shelfed_release_program_pages()
            let after = try Self.status("RssFile")
            results.append((dropped, before, after))
            if dropped >= touched / 2, after < before - touched / 2048 { break }
            _ = sum
        }
        let last = try #require(results.last)
        #expect(last.dropped >= touched / 2, "\(results)")
        #expect(last.after < last.before - touched / 2048, "RssFile \(results)")
        // Nothing was lost: code, read-only data and relocated data still work (a JSON round trip reaches all three).
        let record = ["title": "Dune", "authors": "Frank Herbert"]
        let decoded = try JSONDecoder().decode(
            [String: String].self, from: try JSONEncoder().encode(record))
        #expect(decoded == record)
    }

    /// Runs an idle service with short waits whose giving back is counted, for as long as `body` takes. `body` gets
    /// the count so far and a wait (bounded) until the count reaches a number.
    private static func withCountedReleases(
        activity: ServerActivity, forgetUnused: @escaping @Sendable () -> Bool = { false },
        _ body: (_ releases: @Sendable () -> Int, _ waitFor: (Int) async throws -> Void) async throws -> Void
    ) async throws {
        let (folder, database) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = NIOLockedValueBox(0)
        var service = IdleMemoryService(
            activity: activity, database: database, logger: Logger(label: "test"), forgetUnused: forgetUnused)
        service.quiet = .milliseconds(100)
        service.startUp = .milliseconds(50)
        service.release = {
            count.withLockedValue { $0 += 1 }
            return 0
        }
        let running = Task { [service] in try await service.run() }
        defer { running.cancel() }
        let releases: @Sendable () -> Int = { count.withLockedValue { $0 } }
        try await body(releases) { target in
            for _ in 0..<100 where releases() < target { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test func givesBackOncePerQuietSpellAfterStartAndAfterRequests() async throws {
        let activity = ServerActivity()
        try await Self.withCountedReleases(activity: activity) { releases, waitFor in
            try await waitFor(1)
            #expect(releases() == 1)
            // Quiet goes on: nothing more to give back.
            try await Task.sleep(for: .milliseconds(450))
            #expect(releases() == 1)
            // A request being answered holds it off, however long it takes.
            activity.began()
            try await Task.sleep(for: .milliseconds(350))
            #expect(releases() == 1)
            activity.finished()
            try await waitFor(2)
            #expect(releases() == 2)
            // Background work that ends (an import, a batch of vectors) starts a quiet spell too.
            activity.backgroundWorkFinished()
            try await waitFor(3)
            #expect(releases() == 3)
        }
    }

    @Test func aQuietServerLetsGoOfWhatWentUnusedAndGivesItBack() async throws {
        let unused = NIOLockedValueBox(false)
        let forgetUnused: @Sendable () -> Bool = {
            unused.withLockedValue { was in
                defer { was = false }
                return was
            }
        }
        try await Self.withCountedReleases(activity: ServerActivity(), forgetUnused: forgetUnused) {
            releases, waitFor in
            try await waitFor(1)
            try await Task.sleep(for: .milliseconds(350))
            #expect(releases() == 1)
            // Long after the last request, something goes unused (a language's templates): let go and given back,
            // with no request in between.
            unused.withLockedValue { $0 = true }
            try await waitFor(2)
            #expect(releases() == 2)
            try await Task.sleep(for: .milliseconds(350))
            #expect(releases() == 2)
        }
    }

    @Test func theRealReleaseDropsProgramPagesAndTheDatabaseStillAnswers() async throws {
        let (folder, database) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await UserStore(db: database).create(
            username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: Date())
        let service = IdleMemoryService(activity: ServerActivity(), database: database, logger: Logger(label: "test"))
        #expect(await service.release() > 0)
        #expect(try await database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM user") } == 1)
    }
}
