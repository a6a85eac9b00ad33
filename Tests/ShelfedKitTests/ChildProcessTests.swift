import Foundation
import Testing

@testable import ShelfedKit

#if canImport(Glibc)
    import Glibc
#endif

/// Programs beside the server start through `posix_spawn`, not Foundation's `Process` (whose `run()` crashed this
/// suite with SIGSEGV): what they are given, what they print, how they end, and that none outlives its timeout.
@Suite struct ChildProcessTests {
    @Test func outputErrorsAndExitStatusComeBack() throws {
        let (ending, printed) = try ChildProcess.output(
            of: "/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], environment: [:])
        #expect(ending == .exited(3))
        #expect(printed.contains("out\n") && printed.contains("err\n"))
    }

    @Test func theProgramGetsExactlyTheEnvironmentGiven() throws {
        let (ending, printed) = try ChildProcess.output(of: "/usr/bin/env", [], environment: ["ONLY": "this one"])
        #expect(ending.succeeded)
        #expect(printed == "ONLY=this one\n")
    }

    /// A descriptor the server has open without close-on-exec (a database file, a socket) is not the program's.
    @Test func theServersDescriptorsAreClosedInTheProgram() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)").path
        let descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        try #require(descriptor > 2)
        defer {
            close(descriptor)
            unlink(path)
        }
        let (_, printed) = try ChildProcess.output(
            of: "/bin/sh", ["-c", "ls /proc/$$/fd"], environment: ["PATH": "/usr/bin:/bin"])
        let open = Set(printed.split(separator: "\n").map(String.init))
        #expect(open.contains("1"))
        #expect(!open.contains(String(descriptor)), "\(open.sorted())")
    }

    @Test func aProgramPastItsTimeoutIsStoppedAndWaitedFor() async throws {
        // An hour: under the whole suite on two cores a waiting task was once woken 45 s late, after a thirty-second
        // sleep had ended by itself, and in CI a five-minute one ended before this test's next step ran. Should the
        // wait fail to stop it, the test does.
        let pid = try ChildProcess.start("/bin/sleep", ["3600"], environment: [:])
        defer {
            // Still running (the wait did not stop it): stopped here, so no hour-long sleep outlives the test.
            if ChildProcess.reap(pid) == nil {
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
            }
        }
        let (ending, stopped) = await ChildProcess.wait(for: pid, timeout: .milliseconds(300))
        // Ended by the SIGTERM, so before its five minutes (how soon depends on how busy the machine is: under the
        // whole suite a waiting task may be woken seconds late, so no clock is asserted).
        #expect(stopped)
        #expect(ending == .signalled(SIGTERM))
        // Reaped: nothing is left to wait for.
        #expect(ChildProcess.reap(pid) == .exited(-1))
    }

    /// Cancelled (the server stopping), a program that ignores SIGTERM is killed five seconds later, and reaped.
    /// The program would run an hour: under the whole suite the waiting task may start minutes late (it once found a
    /// one-minute program already ended, and CI once held a test back nearly eight minutes), and it must still find it
    /// running to show the kill.
    @Test func aCancelledWaitStopsEvenAProgramThatIgnoresSIGTERM() async throws {
        let pid = try ChildProcess.start(
            "/bin/sh", ["-c", "trap '' TERM; i=0; while [ $i -lt 36000 ]; do sleep 0.1; i=$((i+1)); done"],
            environment: ["PATH": "/usr/bin:/bin"])
        defer {
            if ChildProcess.reap(pid) == nil {
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
            }
        }
        let waiting = Task { await ChildProcess.wait(for: pid, timeout: nil) }
        try await Task.sleep(for: .milliseconds(200))
        waiting.cancel()
        let (ending, stopped) = await waiting.value
        #expect(stopped)
        #expect(ending == .signalled(SIGKILL))
        #expect(ChildProcess.reap(pid) == .exited(-1))
    }

    @Test func aProgramThatIsNotThereIsAnError() {
        #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess.start("/nonexistent/tesseract", [], environment: [:])
        }
    }

    /// Many at once, as eight photos read side by side and the doctor would: each starts, ends and is counted.
    @Test func manyProgramsAtOnceEachEndOnce() async throws {
        let endings = try await withThrowingTaskGroup(of: ChildProcess.Ending.self) { group in
            for number in 0..<64 {
                group.addTask {
                    let pid = try ChildProcess.start("/bin/sh", ["-c", "exit \(number % 4)"], environment: [:])
                    return await ChildProcess.wait(for: pid, timeout: .seconds(30)).ending
                }
            }
            return try await group.reduce(into: [ChildProcess.Ending]()) { $0.append($1) }
        }
        #expect(endings.count == 64)
        #expect(endings.filter { $0 == .exited(0) }.count == 16)
    }

    /// Nothing in the server goes back to Foundation's `Process`.
    @Test func theServerStartsNoProgramThroughFoundationsProcess() throws {
        let sources = TestApp.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            let starts = [" Process()", "(Process()", "Foundation.Process"].contains { text.contains($0) }
            #expect(!starts, "\(file.lastPathComponent) starts a Foundation Process")
            checked += 1
        }
        #expect(checked > 100)
    }
}
