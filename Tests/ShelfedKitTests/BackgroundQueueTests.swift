import Foundation
import Logging
import Synchronization
import Testing

@testable import ShelfedKit

/// The one loop every kind of background work runs in: recovery first, each piece taken once however many loops
/// run, a failure logged without stopping the rest, a doorbell that wakes a sleeping loop, cancellation that
/// reaches the running piece.
@Suite struct BackgroundQueueTests {
    /// Work held in memory: pieces are numbers; `next()` claims under a lock, as the real workers claim in one write.
    final class Numbers: BackgroundWorker {
        let name = "numbers"
        let doorbell = Doorbell()
        let concurrency: Int
        let idleWait: Duration
        private let state = Mutex<(waiting: [Int], done: [Int], recovered: Bool, takenBeforeRecovery: Bool)>(
            ([], [], false, false))
        /// Pieces that throw instead of finishing.
        let failing: Set<Int>
        /// How long one piece takes.
        let duration: Duration

        init(
            concurrency: Int = 1, idleWait: Duration = .seconds(30), failing: Set<Int> = [], duration: Duration = .zero
        ) {
            self.concurrency = concurrency
            self.idleWait = idleWait
            self.failing = failing
            self.duration = duration
        }

        func add(_ numbers: [Int]) {
            state.withLock { $0.waiting += numbers }
            doorbell.ring()
        }

        var done: [Int] { state.withLock { $0.done } }
        var recoveredFirst: Bool { state.withLock { $0.recovered && !$0.takenBeforeRecovery } }

        func recover() async throws {
            state.withLock { $0.recovered = true }
        }

        func next() async throws -> Int? {
            state.withLock { state in
                if !state.recovered { state.takenBeforeRecovery = true }
                return state.waiting.isEmpty ? nil : state.waiting.removeFirst()
            }
        }

        func run(_ number: Int) async throws {
            if duration > .zero { try await Task.sleep(for: duration) }
            if failing.contains(number) { throw CocoaError(.fileNoSuchFile) }
            state.withLock { $0.done.append(number) }
        }
    }

    /// Waits (bounded) until `condition` holds.
    func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<400 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func everyPieceRunsOnceAcrossLoopsAndAFailureDoesNotStopTheRest() async throws {
        // setup: four loops, sixty pieces, two of which fail
        let numbers = Numbers(concurrency: 4, failing: [7, 30], duration: .milliseconds(2))
        numbers.add(Array(1...60))
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"), failureRest: .milliseconds(1))
        let running = Task { try await queue.run() }
        defer { running.cancel() }
        // act
        try await eventually { numbers.done.count == 58 }
        // validate
        #expect(numbers.recoveredFirst)
        #expect(numbers.done.sorted() == Array(1...60).filter { ![7, 30].contains($0) })
        #expect(Set(numbers.done).count == numbers.done.count)
    }

    @Test func theDoorbellWakesASleepingLoop() async throws {
        // A loop that would otherwise sleep for a minute.
        let numbers = Numbers(idleWait: .seconds(60))
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"))
        let running = Task { try await queue.run() }
        defer { running.cancel() }
        try await Task.sleep(for: .milliseconds(100))
        let clock = ContinuousClock()
        let rung = clock.now
        numbers.add([1])
        try await eventually { numbers.done == [1] }
        #expect(numbers.done == [1])
        #expect(clock.now - rung < .seconds(2))
    }

    @Test func stoppingReachesTheRunningPiece() async throws {
        let numbers = Numbers(duration: .seconds(60))
        numbers.add([1])
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"))
        let running = Task { try await queue.run() }
        try await Task.sleep(for: .milliseconds(100))
        let clock = ContinuousClock()
        let stopped = clock.now
        running.cancel()
        _ = await running.result
        #expect(clock.now - stopped < .seconds(5))
        #expect(numbers.done.isEmpty)
    }
}
