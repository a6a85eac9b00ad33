/// How a background loop sleeps between rounds: until someone rings (a job was confirmed, a photo stored) or at most
/// `timeout`, whichever comes first. A ring while the loop is busy is kept (one at most), so no work is missed.
///
/// The timeout rings only when its sleep ran to the end: a timer cancelled because the loop woke early must not ring,
/// or every wake-up leaves a ring behind for the next wait and the loop never blocks again (after any import the
/// server burned 1.3 cores with nothing to do).
final class WakeSignal: Sendable {
    private let rings: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (rings, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func ring() {
        continuation.yield()
    }

    /// Returns at the next ring, after `timeout`, or when the task is cancelled. Only one loop waits on a signal.
    func wait(atMost timeout: Duration) async {
        let continuation = continuation
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            continuation.yield()
        }
        defer { timer.cancel() }
        var iterator = rings.makeAsyncIterator()
        _ = await iterator.next()
    }
}
