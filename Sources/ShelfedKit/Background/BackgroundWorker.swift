import Synchronization

/// One kind of background work, in the one shape every kind has (STYLE, "Background work has one shape"): its work
/// is rows in SQLite; `BackgroundQueue` asks it once, at start, to put right what a restart left running, and then,
/// again and again, for the next piece of work and to run it.
protocol BackgroundWorker: Sendable {
    associatedtype Work: Sendable
    /// For the log.
    var name: String { get }
    /// Rung when work is added, so the queue looks at once instead of at its next idle wake-up.
    var doorbell: Doorbell { get }
    /// Pieces of this work run at once.
    var concurrency: Int { get }
    /// How long the queue sleeps when nothing is due before it looks again, for work that falls due later. Work
    /// added in this process rings the doorbell (or commits to `watchedTables`); another process's writes ring every
    /// doorbell (`BackgroundQueue`), so this can be long: each look is a wake-up of an idle server.
    var idleWait: Duration { get }
    /// Tables whose commits (in this process) may have added work: each rings the doorbell (issue 35, finding 2:
    /// polling every few seconds kept an idle server at 4–6 CPU ticks per 10 s).
    var watchedTables: [String] { get }
    /// A rest after each piece (politeness to a book service); zero for none.
    var pause: Duration { get }
    /// What a restart does to work that was running when the server stopped: resume it, retry it, or fail it.
    func recover() async throws
    /// Claims the next piece of work that is due, so that no other loop takes it; nil when none is.
    func next() async throws -> Work?
    /// Does the work. Failures the worker expects (a book service down, a photo tesseract cannot read) it records
    /// itself; anything it throws is tried again by the queue's `Backoff` and then given up on.
    func run(_ work: Work) async throws
    /// Records on the work's row that it failed for good, with `reason` for the person who asked for it, so it is
    /// neither taken again nor left looking busy.
    func giveUp(_ work: Work, reason: String) async throws
}

extension BackgroundWorker {
    var concurrency: Int { 1 }
    var pause: Duration { .zero }
    var watchedTables: [String] { [] }
}

/// Wakes every loop of one worker: work was added. Safe to ring before the queue has started.
final class Doorbell: Sendable {
    private let signals = Mutex<[WakeSignal]>([])

    func ring() {
        for signal in signals.withLock({ $0 }) { signal.ring() }
    }

    /// A signal for one more loop, rung with the others.
    func signal() -> WakeSignal {
        let signal = WakeSignal()
        signals.withLock { $0.append(signal) }
        return signal
    }
}
