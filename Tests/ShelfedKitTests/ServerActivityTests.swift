import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Background embedding waits for a quiet moment between requests, but never for ever.
@Suite struct ServerActivityTests {
    @Test func quietMeansNothingAnsweredAndNothingJustFinished() {
        let activity = ServerActivity()
        activity.began()
        #expect(!activity.isQuiet(for: .zero))
        activity.began()
        activity.finished()
        #expect(!activity.isQuiet(for: .zero))  // one still being answered
        activity.finished()
        #expect(activity.isQuiet(for: .zero))
        #expect(!activity.isQuiet(for: .seconds(60)))  // one finished a moment ago
    }

    @Test func waitingForQuietEndsWhenTheRequestsDoOrAtTheLongest() async {
        let activity = ServerActivity()
        activity.began()
        let started = ContinuousClock.now
        await activity.waitForQuiet(.milliseconds(10), atMost: .milliseconds(300))
        // Still answering: it waited the longest it may, and no more than a moment beyond.
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        Task {
            try await Task.sleep(for: .milliseconds(100))
            activity.finished()
        }
        await activity.waitForQuiet(.milliseconds(50), atMost: .seconds(30))
        #expect(activity.isQuiet(for: .milliseconds(50)))
    }

    @Test func theMiddlewareCountsEveryRequestUntilItsAnswer() async throws {
        let activity = ServerActivity()
        let router = Router()
        router.add(middleware: ServerActivityMiddleware(activity: activity))
        router.get("/busy") { _, _ in activity.isQuiet(for: .zero) ? "quiet" : "answering" }
        router.get("/fails") { _, _ -> String in throw HTTPError(.notFound) }
        try await Application(router: router).test(.router) { client in
            let busy = try await client.execute(uri: "/busy", method: .get)
            #expect(busy.body == ByteBuffer(string: "answering"))
            let fails = try await client.execute(uri: "/fails", method: .get)
            #expect(fails.status == .notFound)
        }
        // Every request counted in was counted out, the failed one too.
        #expect(activity.isQuiet(for: .zero))
    }
}
