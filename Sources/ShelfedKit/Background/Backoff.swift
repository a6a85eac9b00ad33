/// How many times a piece of background work is tried and how long to wait between tries: the one retry policy
/// of the queue (and of enrichment's own waits for a book service), waits growing by `factor` up to `longest`.
struct Backoff: Sendable, Equatable {
    /// Tries in all, the first included.
    var tries: Int
    var first: Duration
    var factor: Int
    var longest: Duration

    /// A piece that failed for a reason its worker did not expect (a full disk, a locked database) is tried three
    /// times, 2 s and 8 s apart, and then given up on with the reason recorded on its row.
    static let standard = Backoff(tries: 3, first: .seconds(2), factor: 4, longest: .seconds(300))

    /// The wait before the next try after `failedTries` failed ones (1 or more); nil once every try is spent.
    func wait(afterFailedTries failedTries: Int) -> Duration? {
        guard failedTries >= 1, failedTries < tries else { return nil }
        var wait = first
        for _ in 1..<failedTries where wait < longest { wait = min(wait * factor, longest) }
        return wait
    }
}
