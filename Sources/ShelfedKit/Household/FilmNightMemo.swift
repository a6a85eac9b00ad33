import Foundation
import GRDB
import Synchronization

/// Film night's evenings, kept between requests (issue 36: work that does not change between requests is done when
/// its inputs change). What a sofa can watch changes only when someone's shelves, a title or someone's sharing does,
/// so a page asked again — the sofa trying "ends by 23:00", a phone reloading — only renders. Any commit to those
/// tables (and a new list from the house's Jellyfin) forgets every evening; so does a minute passing (another process, such as a restore, writes unseen).
final class FilmNightMemo: Sendable {
    struct Key: Hashable, Sendable {
        let viewer: Int64
        let members: [Int64]
        let kind: TitleKind?
    }

    private struct State {
        var generation = 0
        var evenings: [Key: (generation: Int, at: ContinuousClock.Instant, evening: FilmNight.Evening)] = [:]
    }

    /// A handful of sofas at once; past this the oldest answers are simply dropped.
    static let capacity = 16
    static let lifetime: Duration = .seconds(60)

    private let state = Mutex(State())
    private let observation = Mutex<AnyDatabaseCancellable?>(nil)

    /// Watches `database` for commits to what an evening is made of.
    init(database: AppDatabase) {
        // Only the columns an evening reads: the background's stamps on `book` (a refresh, page to screen, matching
        // imported titles) would otherwise forget every evening every few seconds after an import.
        let cancellable = DatabaseRegionObservation(
            tracking: Table("user_book").select(
                Column("user_id"), Column("book_id"), Column("shelf"), Column("owned")),
            Table("book").select(
                Column("kind"), Column("title"), Column("published_date"), Column("runtime_minutes"),
                Column("cover_path")),
            Table("user").select(Column("shares_reading"), Column("display_name")),
            Table("jellyfin_library")
        )
        .start(in: database.writer, onError: { _ in }, onChange: { [weak self] _ in self?.forget() })
        observation.withLock { $0 = cancellable }
    }

    /// Changes with every commit that could change an evening.
    func generation() -> Int {
        state.withLock { $0.generation }
    }

    func evening(for key: Key, generation: Int) -> FilmNight.Evening? {
        state.withLock { state in
            guard let kept = state.evenings[key], kept.generation == generation, state.generation == generation,
                ContinuousClock.now - kept.at < Self.lifetime
            else { return nil }
            return kept.evening
        }
    }

    /// Keeps `evening`, worked out from a read that began at `generation`, unless something changed since.
    func keep(_ evening: FilmNight.Evening, for key: Key, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.evenings.count >= Self.capacity, state.evenings[key] == nil {
                if let oldest = state.evenings.min(by: { $0.value.at < $1.value.at })?.key {
                    state.evenings[oldest] = nil
                }
            }
            state.evenings[key] = (generation, ContinuousClock.now, evening)
        }
    }

    private func forget() {
        state.withLock { state in
            state.generation &+= 1
            state.evenings.removeAll()
        }
    }
}
