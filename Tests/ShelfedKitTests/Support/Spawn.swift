import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program (mount, umount) and waits for it, with `posix_spawn` rather than Foundation's `Process`: a full
/// parallel run crashed inside `Process.run()` (a `memcpy` on a bad pointer) while another test started a process at
/// the same moment, and these helpers need nothing `Process` adds.
enum Spawn {
    /// The program's exit status, or nil when it could not be started. Its standard error is discarded.
    static func run(_ path: String, _ arguments: [String]) -> Int32? {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return nil }
        }
        // WEXITSTATUS, for a program that exited rather than was killed.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil
    }
}
