import Foundation
import Logging

/// One provider behind its circuit breaker and retry policy.
struct ResilientUpstream: Sendable {
    let name: String
    let client: UpstreamClient
    let policy: RetryPolicy
    let breaker: CircuitBreaker
    let logger: Logger

    func get(_ url: String, headers: [(String, String)] = []) async throws -> Data {
        try await breaker.permit()
        var attempt = 1
        while true {
            do {
                let data = try await client.get(url, headers: headers)
                await breaker.recordSuccess()
                return data
            } catch let failure as UpstreamFailure {
                if let wait = policy.delay(after: failure, attempt: attempt) {
                    logger.info("\(name) failed (\(failure)); try \(attempt + 1) in \(wait)")
                    attempt += 1
                    try await Task.sleep(for: wait)
                    continue
                }
                if failure == .unreachable {
                    logger.warning("\(name) cannot be reached; not asking again for a while")
                    await breaker.recordUnreachable()
                } else if failure.countsAsFailure {
                    logger.warning("\(name) failed after \(attempt) tries: \(failure)")
                    await breaker.recordFailure()
                } else {
                    await breaker.recordNeutral()
                }
                throw failure
            }
        }
    }
}
