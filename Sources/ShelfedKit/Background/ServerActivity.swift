import Hummingbird
import NIOConcurrencyHelpers

/// How many requests the server is answering and when it last finished one. Background work that competes with
/// pages for the CPU and its caches — embedding books, whose matrix products take a whole core's cache for a third
/// of a second a batch — waits for a quiet moment, so a person's page keeps its speed (benchmarks/README.md).
final class ServerActivity: Sendable {
    private let state = NIOLockedValueBox(
        (answering: 0, lastFinished: ContinuousClock.now, lastBackgroundWork: ContinuousClock.now))

    func began() {
        state.withLockedValue { $0.answering += 1 }
    }

    func finished() {
        state.withLockedValue { state in
            state.answering -= 1
            state.lastFinished = .now
        }
    }

    /// A piece of background work (an import, a batch of vectors) ended.
    func backgroundWorkFinished() {
        state.withLockedValue { $0.lastBackgroundWork = .now }
    }

    /// The requests being answered, and when the server last finished a request or a piece of background work.
    var lastActivity: (answering: Int, at: ContinuousClock.Instant) {
        state.withLockedValue { ($0.answering, max($0.lastFinished, $0.lastBackgroundWork)) }
    }

    /// Whether no request is being answered and none finished within `quiet`.
    func isQuiet(for quiet: Duration) -> Bool {
        state.withLockedValue { $0.answering == 0 && ContinuousClock.now >= $0.lastFinished.advanced(by: quiet) }
    }

    /// Returns once the server has been quiet for `quiet`, or after `longest` whatever it is doing, so a server that
    /// is never quiet still gets its background work done, a little at a time.
    func waitForQuiet(_ quiet: Duration, atMost longest: Duration) async {
        let deadline = ContinuousClock.now.advanced(by: longest)
        while !isQuiet(for: quiet), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// Counts the requests being answered for `ServerActivity`. A streamed body (an import's progress) counts only
/// while its handler runs, not for as long as the stream stays open.
struct ServerActivityMiddleware<Context: RequestContext>: RouterMiddleware {
    let activity: ServerActivity

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        activity.began()
        defer { activity.finished() }
        return try await next(request, context)
    }
}
