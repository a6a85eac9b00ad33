import CImaging
import Foundation

/// glibc gives each thread that allocates a malloc arena of its own, up to eight per core, and every arena keeps
/// pages resident. The server's dozen threads (event loops, the blocking and database pools, the cooperative pool)
/// would each hold one. Four arenas keep an idle server ~0.3 MB smaller at no cost in speed; two saved ~0.5 MB but
/// made staging an import ~25 % slower, its threads queueing for the arenas' locks (benchmarks/README.md, "Idle
/// memory"). `MALLOC_ARENA_MAX`, when set, still wins.
enum MemoryArenas {
    static func limit() {
        if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil { shelfed_limit_malloc_arenas(4) }
    }
}
