import Foundation

/// Counts calls per client in a sliding minute, in memory (a restart forgets them, which only ever lets a few
/// more calls through — unlike sign-in attempts, nothing here guards a secret).
actor RateLimiter {
    let now: @Sendable () -> Date
    private var calls: [String: [Date]] = [:]
    /// Beyond this many clients the oldest records are dropped, so no flood of addresses can grow memory.
    static let maxClients = 10_000

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// Records a call by `client` and answers nil, or how many milliseconds until another call is allowed.
    func admit(_ client: String, limit: Int, per window: TimeInterval = 60) -> Int? {
        let now = self.now()
        var recent = (calls[client] ?? []).filter { now.timeIntervalSince($0) < window }
        if recent.count >= limit, let oldest = recent.first {
            calls[client] = recent
            return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now) * 1000).rounded(.up)))
        }
        recent.append(now)
        if calls[client] == nil, calls.count >= Self.maxClients { prune(olderThan: window, now: now) }
        calls[client] = recent
        return nil
    }

    private func prune(olderThan window: TimeInterval, now: Date) {
        calls = calls.filter { _, dates in dates.last.map { now.timeIntervalSince($0) < window } ?? false }
        if calls.count >= Self.maxClients { calls.removeAll() }
    }
}
