/// When to ask a provider again: transient failures with exponential backoff and jitter, and a per-minute
/// 429 after the `Retry-After` it names, at most `maxAttempts` tries in all. Nothing else is retried.
public struct RetryPolicy: Sendable {
    public var maxAttempts: Int
    public var baseDelay: Duration
    /// A longer `Retry-After` is passed on to the user instead of holding their page open.
    public var maxRetryAfter: Int

    public init(maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), maxRetryAfter: Int = 10) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// How long to wait before try `attempt + 1` after `failure`, or nil to give up.
    func delay(after failure: UpstreamFailure, attempt: Int) -> Duration? {
        guard attempt < maxAttempts else { return nil }
        switch failure {
        case .rateLimited(let retryAfter?, dailyQuota: false) where retryAfter <= maxRetryAfter:
            return .seconds(retryAfter)
        case _ where failure.isTransient:
            let exponential = baseDelay * (1 << (attempt - 1))
            return exponential * Double.random(in: 0.5...1.5)
        default:
            return nil
        }
    }
}
