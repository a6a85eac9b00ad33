import Foundation

/// Stops calling a provider after `threshold` failed calls in a row; after `coolDown` one trial call is let
/// through (half-open): success closes the circuit, failure opens it for another `coolDown`.
public actor CircuitBreaker {
    enum State: Equatable {
        case closed(failures: Int)
        case open(until: Date)
        case halfOpen
    }

    /// The provider's name, as errors report it.
    let name: String
    let threshold: Int
    let coolDown: TimeInterval
    let now: @Sendable () -> Date
    private(set) var state = State.closed(failures: 0)

    public init(
        name: String, threshold: Int = 5, coolDown: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.name = name
        self.threshold = threshold
        self.coolDown = coolDown
        self.now = now
    }

    /// Throws `circuitOpen` while the provider is resting; otherwise the call may go ahead.
    func permit() throws {
        switch state {
        case .closed:
            return
        case .open(let until):
            let wait = until.timeIntervalSince(now())
            guard wait <= 0 else {
                throw UpstreamFailure.circuitOpen(
                    provider: name, retryAfterMilliseconds: Int((wait * 1000).rounded(.up)))
            }
            state = .halfOpen
        case .halfOpen:
            // One trial at a time; others wait for its verdict.
            throw UpstreamFailure.circuitOpen(provider: name, retryAfterMilliseconds: 1_000)
        }
    }

    func recordSuccess() {
        state = .closed(failures: 0)
    }

    func recordFailure() {
        switch state {
        case .closed(let failures) where failures + 1 < threshold:
            state = .closed(failures: failures + 1)
        default:
            state = .open(until: now().addingTimeInterval(coolDown))
        }
    }

    /// A connection that could not be made at all: the network is down or the provider's address is wrong, and
    /// asking again within seconds would only make every page wait for the connect timeout once more.
    func recordUnreachable() {
        state = .open(until: now().addingTimeInterval(coolDown))
    }

    /// Lets a call that was permitted but ended in neither verdict (e.g. not found) release a half-open trial.
    func recordNeutral() {
        if state == .halfOpen { state = .closed(failures: 0) }
    }
}
