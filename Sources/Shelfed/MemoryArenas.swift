import CImaging
import Foundation

/// glibc gives each thread that allocates a malloc arena of its own, up to eight per core, and every arena keeps
/// pages resident. The server's dozen threads (event loops, the blocking and database pools, the cooperative pool)
/// would each hold one; two arenas are plenty for a household's traffic and keep an idle server ~0.6 MB smaller
/// (benchmarks/README.md, "Idle memory"). `MALLOC_ARENA_MAX`, when set, still wins.
enum MemoryArenas {
    static func limit() {
        if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil { shelfed_limit_malloc_arenas(2) }
    }
}
