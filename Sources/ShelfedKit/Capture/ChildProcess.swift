import CSpawn
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program run beside the server: tesseract for the text of a photo, the doctor's version checks.
///
/// Why not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` to close the server's descriptors in
/// the child and copies each 256-byte name from a directory record that may be shorter; when the record ends a page,
/// the copy reads the next, unmapped one and the whole server stops with SIGSEGV (swift-corelibs-foundation PR #5472,
/// merged May 2026, after the Swift 6.3.1 this project builds with). The test suite crashed that way in `Process.run`,
/// and so could a server reading a photo. So programs start through `posix_spawn` (`CSpawn`), which closes the
/// descriptors itself, and are waited for by polling `waitpid`, which holds no thread.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How a program ended: its exit status, or the signal that stopped it.
    enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        var succeeded: Bool { self == .exited(0) }
        var byASignal: Bool {
            if case .signalled = self { return true }
            return false
        }
    }

    /// Starts `executable` with `arguments` and exactly `environment`, its output into `output` and its errors into
    /// `errors` (descriptors the caller keeps and closes; -1 for none). Returns the child's id.
    static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], output: Int32 = -1,
        errors: Int32 = -1
    ) throws -> pid_t {
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for string in argv + envp { free(string) }
        }
        var pid: pid_t = 0
        let error = (argv + [nil]).withUnsafeBufferPointer { arguments in
            (envp + [nil]).withUnsafeBufferPointer { environment in
                shelfed_spawn(executable, arguments.baseAddress, environment.baseAddress, output, errors, &pid)
            }
        }
        guard error == 0 else {
            throw Failure(description: "\(executable) could not be started: \(String(cString: strerror(error)))")
        }
        return pid
    }

    /// Waits for `pid` to end, checking every `interval` (an OCR run takes seconds; 25 ms of lateness is nothing).
    /// After `timeout`, or when the task is cancelled, the program is asked to stop (SIGTERM) and, if it has not
    /// after five seconds, killed; it is always waited for, so no zombie is left.
    static func wait(
        for pid: pid_t, timeout: Duration? = nil, interval: Duration = .milliseconds(25)
    ) async -> (ending: Ending, stopped: Bool) {
        let started = ContinuousClock.now
        var askedToStop: ContinuousClock.Instant? = nil
        while true {
            if let ending = reap(pid) { return (ending, askedToStop != nil) }
            let now = ContinuousClock.now
            if let asked = askedToStop {
                if now - asked >= .seconds(5) { kill(pid, SIGKILL) }
            } else if Task.isCancelled || timeout.map({ now - started >= $0 }) == true {
                kill(pid, SIGTERM)
                askedToStop = now
            }
            // A cancelled task's own sleep returns at once, which would spin this loop until the program goes: after
            // cancellation the pause is a detached task's, which nothing cancels.
            if Task.isCancelled {
                await Task.detached { try? await Task.sleep(for: interval) }.value
            } else {
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// The program's ending, if it has ended (and then it is reaped); nil while it runs.
    static func reap(_ pid: pid_t) -> Ending? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else {
            // Not ours to wait for (reaped elsewhere): nothing will ever end, so say it failed.
            return result == -1 && errno == ECHILD ? .exited(-1) : nil
        }
        // The <sys/wait.h> macros, which Swift does not import: the low 7 bits are the signal, 0 for an exit.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Runs a short program to its end and returns how it ended and what it printed (output and errors together, at
    /// most `limit` bytes); for the doctor's checks and the tests, which wait on the calling thread.
    static func output(
        of executable: String, _ arguments: [String], environment: [String: String], limit: Int = 64 * 1024
    ) throws -> (ending: Ending, printed: String) {
        var ends: [Int32] = [0, 0]
        // Close-on-exec, so another program started meanwhile does not hold this pipe open.
        guard shelfed_pipe(&ends) == 0 else {
            throw Failure(description: "no pipe: \(String(cString: strerror(errno)))")
        }
        let (reading, writing) = (ends[0], ends[1])
        let pid: pid_t
        do {
            pid = try start(executable, arguments, environment: environment, output: writing, errors: writing)
        } catch {
            close(reading)
            close(writing)
            throw error
        }
        close(writing)
        var printed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
            if count > 0 {
                printed.append(contentsOf: buffer[..<min(count, max(0, limit - printed.count))])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(reading)
        var status: Int32 = 0
        var result = waitpid(pid, &status, 0)
        while result == -1 && errno == EINTR { result = waitpid(pid, &status, 0) }
        let signal = status & 0x7f
        // Not waited for (it cannot be ours): a failure, never a success read from an untouched status.
        let ending: Ending =
            result != pid ? .exited(-1) : signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        return (ending, String(decoding: printed, as: UTF8.self))
    }
}
