import NIOConcurrencyHelpers

/// `work`'s value if it comes within `limit`, else `UpstreamFailure.timeout` — while `work` goes on in a task of its
/// own, so a slow provider's answer still reaches the cache for the person's next try instead of being thrown away.
///
/// A task group cannot do this: it waits for every child before returning, and a coalesced request does not stop
/// when cancelled.
func resultWithin<Value: Sendable>(
    _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let waiting = NIOLockedValueBox<CheckedContinuation<Value, any Error>?>(nil)
    @Sendable func finish(_ result: Result<Value, any Error>) {
        let continuation = waiting.withLockedValue { waiting in
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(with: result)
    }
    return try await withCheckedThrowingContinuation { continuation in
        waiting.withLockedValue { $0 = continuation }
        let timer = Task {
            try await Task.sleep(for: limit)
            finish(.failure(UpstreamFailure.timeout))
        }
        Task {
            do {
                finish(.success(try await work()))
            } catch {
                finish(.failure(error))
            }
            timer.cancel()
        }
    }
}
