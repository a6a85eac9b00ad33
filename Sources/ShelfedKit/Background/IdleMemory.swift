import CMemory
import Foundation
import Logging
import ServiceLifecycle

/// What an idle server keeps resident is what idling needs (DESIGN §11: ≤ 30 MB).
///
/// Most of the server's resident memory is its own program file: machine code and read-only data that start-up, a
/// page or an import ran once. The kernel keeps such pages in the process for as long as it lives (and maps the 64 KB
/// around each one touched), so a server that had done everything once stayed that size at rest. `release()` hands
/// malloc's free pages back and drops those clean program pages from the process: they stay in the kernel's page
/// cache, first in line when memory runs short, and the next page brings back what it runs with minor faults
/// (benchmarks/README.md, "Idle memory, given back").
public enum IdleMemory {
    /// Blocks of 1 MiB or more (the encoder's working arrays, a decoded photo's rows) are mappings of their own,
    /// unmapped when freed, instead of staying in an arena.
    static let mmapThreshold = 1 << 20

    /// Free space at the top of an arena is kept up to this much rather than handed back at once. glibc's own
    /// 128 KiB gave a shelf page's buffers back to the system after almost every request and faulted them in again
    /// on the next: an `madvise`, a TLB flush on every core and ~15 fresh pages a request, 10 % of the page's CPU.
    /// Kept small because `malloc_trim` at rest trims only the main arena's top; the other three keep what this
    /// allows (measured: 8 MiB left an idle server 3.5 MiB larger, 512 KiB nothing measurable).
    static let trimThreshold = 512 << 10

    /// glibc's malloc set for a small server, before any thread starts: four arenas (each thread that allocates would
    /// otherwise get one, each holding pages; two made staging an import 25 % slower), a fixed mmap threshold and a
    /// trim threshold of its own. A setting made outside — `MALLOC_ARENA_MAX`, `MALLOC_MMAP_THRESHOLD_`,
    /// `MALLOC_TRIM_THRESHOLD_` or the same in `GLIBC_TUNABLES` — still wins.
    public static func configureMalloc(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func chosen(_ variable: String, _ tunable: String) -> Bool {
            environment[variable] != nil
                || (environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.\(tunable)=") ?? false)
        }
        shelfed_configure_malloc(
            chosen("MALLOC_ARENA_MAX", "arena_max") ? 0 : 4,
            chosen("MALLOC_MMAP_THRESHOLD_", "mmap_threshold") ? 0 : mmapThreshold,
            chosen("MALLOC_TRIM_THRESHOLD_", "trim_threshold") ? 0 : trimThreshold)
    }

    /// Gives back malloc's free pages and the program's clean pages; returns the program bytes dropped.
    @discardableResult
    static func release() -> Int {
        shelfed_release_free_memory()
        return max(0, shelfed_release_program_pages())
    }
}

/// Gives memory back once start-up has settled and whenever the server has been quiet for `quiet` after answering
/// requests or finishing background work, once per quiet spell: a server nobody uses wakes only every `quiet` to see
/// that nothing happened. Giving back also closes the database's idle read connections and empties its page caches.
struct IdleMemoryService: Service {
    let activity: ServerActivity
    var quiet: Duration = .seconds(30)
    /// Start-up's own work goes on for a moment after the server listens (the queue's recovery, the workers' first
    /// look for waiting work, the backup schedule): ten megabytes of program pages touched once.
    var startUp: Duration = .seconds(2)
    let logger: Logger
    /// What giving back does; returns the program bytes dropped (tests count the calls).
    var release: @Sendable () async -> Int
    /// Lets go of what has gone unused for long (a language's templates); true when it let something go, which is
    /// then given back even if the server has been quiet since the last time.
    var forgetUnused: @Sendable () -> Bool

    init(
        activity: ServerActivity, database: AppDatabase, logger: Logger,
        forgetUnused: @escaping @Sendable () -> Bool = { false }
    ) {
        self.activity = activity
        self.logger = logger
        self.forgetUnused = forgetUnused
        release = {
            database.releaseMemoryEventually()
            // A connection at rest closes at once; one still working (a long import, the nightly backup) later.
            try? await Task.sleep(for: .milliseconds(100))
            return IdleMemory.release()
        }
    }

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await Task.sleep(for: startUp)
                // Once start-up has settled, give back at once; after that, once each quiet spell is over.
                var wait = Duration.zero
                var givenBackAfter: ContinuousClock.Instant?
                while true {
                    let (answering, lastActive) = activity.lastActivity
                    let due = lastActive.advanced(by: wait)
                    if answering > 0 || givenBackAfter == lastActive {
                        try await Task.sleep(for: quiet)
                        // Quiet for long: a language nobody has asked for since is let go, its memory given back.
                        if answering == 0, givenBackAfter == lastActive, forgetUnused() { _ = await release() }
                    } else if ContinuousClock.now < due {
                        try await Task.sleep(until: due, clock: .continuous)
                    } else {
                        givenBackAfter = lastActive
                        wait = quiet
                        _ = forgetUnused()
                        let dropped = await release()
                        logger.debug("Quiet: gave back \(dropped / 1024) KiB of program pages")
                    }
                }
            }
        } catch is CancellationError {
            return
        }
    }
}
