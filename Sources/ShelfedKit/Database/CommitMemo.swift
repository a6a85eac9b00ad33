import Foundation
import GRDB
import Synchronization

/// Answers kept between requests until a commit touches what they were made from (issue 36: work that does not
/// change between requests is done when its inputs change, not on every page). Film night's evenings and a book's
/// More like this are kept this way.
///
/// Every commit to the tracked tables (or columns) forgets every answer, so a kept answer is never older than the
/// last change this server made. A write the server cannot see — another process, such as the command line — is
/// caught by `lifetime`: no answer is kept longer than that.
///
/// How to use it without keeping a stale answer: read `generation()` *before* the database read that makes the
/// answer, and hand it back with `keep`. A commit meanwhile changes the generation, and the answer is dropped.
final class CommitMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Kept {
        let generation: Int
        let at: ContinuousClock.Instant
        let value: Value
    }

    private struct State {
        var generation = 0
        var answers: [Key: Kept] = [:]
    }

    let capacity: Int
    let lifetime: Duration
    private let state = Mutex(State())
    private let observation = Mutex<AnyDatabaseCancellable?>(nil)

    /// Watches `database` for commits to `regions` (tables, or some of their columns).
    init(
        database: AppDatabase, tracking regions: [any DatabaseRegionConvertible], capacity: Int,
        lifetime: Duration = .seconds(60)
    ) {
        self.capacity = capacity
        self.lifetime = lifetime
        let cancellable = DatabaseRegionObservation(tracking: regions)
            .start(in: database.writer, onError: { _ in }, onChange: { [weak self] _ in self?.forget() })
        observation.withLock { $0 = cancellable }
    }

    /// Changes with every commit that could change an answer.
    func generation() -> Int {
        state.withLock { $0.generation }
    }

    /// The answer kept for `key`, if nothing it was made from changed since `generation` and it is not too old.
    func value(for key: Key, generation: Int) -> Value? {
        state.withLock { state in
            guard let kept = state.answers[key], kept.generation == generation, state.generation == generation,
                ContinuousClock.now - kept.at < lifetime
            else { return nil }
            return kept.value
        }
    }

    /// Keeps `value`, worked out from a read that began at `generation`, unless something changed since. Past
    /// `capacity` the answers past their lifetime go, or else the oldest one.
    func keep(_ value: Value, for key: Key, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.answers.count >= capacity, state.answers[key] == nil {
                let now = ContinuousClock.now
                state.answers = state.answers.filter { now - $0.value.at < lifetime }
                if state.answers.count >= capacity,
                    let oldest = state.answers.min(by: { $0.value.at < $1.value.at })?.key
                {
                    state.answers[oldest] = nil
                }
            }
            state.answers[key] = Kept(generation: generation, at: ContinuousClock.now, value: value)
        }
    }

    /// The kept answer for `key`, or `make`'s, kept for the next request. `make` reads the database itself.
    func answer(for key: Key, _ make: () async throws -> Value) async rethrows -> Value {
        let generation = generation()
        if let kept = value(for: key, generation: generation) { return kept }
        let value = try await make()
        keep(value, for: key, generation: generation)
        return value
    }

    /// Lets go of the answers past their lifetime, which would not be given again (a quiet server keeps nothing it
    /// has no use for); whether there were any.
    @discardableResult
    func dropExpired(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            let before = state.answers.count
            state.answers = state.answers.filter { now - $0.value.at < lifetime }
            return state.answers.count < before
        }
    }

    private func forget() {
        state.withLock { state in
            state.generation &+= 1
            state.answers.removeAll()
        }
    }
}
