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
        private let state = Mutex<
            (
                waiting: [Int], done: [Int], recovered: Bool, takenBeforeRecovery: Bool,
                tries: [Int: [ContinuousClock.Instant]],
                givenUp: [Int: String]
            )
        >(([], [], false, false, [:], [:]))
        /// Pieces that throw instead of finishing, every time.
        let failing: Set<Int>
        /// Pieces that throw the first time only.
        let flaky: Set<Int>
        /// How long one piece takes.
        let duration: Duration

        init(
            concurrency: Int = 1, idleWait: Duration = .seconds(30), failing: Set<Int> = [], flaky: Set<Int> = [],
            duration: Duration = .zero
        ) {
            self.concurrency = concurrency
            self.idleWait = idleWait
            self.failing = failing
            self.flaky = flaky
            self.duration = duration
        }

        func add(_ numbers: [Int]) {
            state.withLock { $0.waiting += numbers }
            doorbell.ring()
        }

        var done: [Int] { state.withLock { $0.done } }
        var tries: [Int: [ContinuousClock.Instant]] { state.withLock { $0.tries } }
        var givenUp: [Int: String] { state.withLock { $0.givenUp } }
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
            let tried = state.withLock { state in
                state.tries[number, default: []].append(ContinuousClock.now)
                return state.tries[number]!.count
            }
            if duration > .zero { try await Task.sleep(for: duration) }
            if failing.contains(number) || (flaky.contains(number) && tried == 1) { throw CocoaError(.fileNoSuchFile) }
            state.withLock { $0.done.append(number) }
        }

        func giveUp(_ number: Int, reason: String) async throws {
            state.withLock { $0.givenUp[number] = reason }
        }
    }

    /// Waits until `condition` holds, looking at most `looks` times, 10 ms apart: about 150 s on an idle machine.
    /// The bound counts looks, not seconds. In a full run on two cores, hundreds of test tasks share two cooperative
    /// threads, and CI once kept this test and the queue beside it off them both for over five minutes; a deadline in
    /// seconds then ran out before the queue had run its first piece. A look happens only when this test gets a
    /// thread, and so does the queue's next step, so the wait stretches with the machine and ends as soon as the
    /// condition holds.
    func eventually(looks: Int = 15_000, _ condition: () -> Bool) async throws {
        for _ in 0..<looks {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    static let quickBackoff = Backoff(tries: 3, first: .milliseconds(20), factor: 4, longest: .seconds(1))

    @Test func everyPieceRunsOnceAcrossLoopsAndAFailureDoesNotStopTheRest() async throws {
        // setup: four loops, sixty pieces, two of which always fail
        let numbers = Numbers(concurrency: 4, failing: [7, 30], duration: .milliseconds(2))
        numbers.add(Array(1...60))
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"), backoff: Self.quickBackoff)
        let running = Task { try await queue.run() }
        defer { running.cancel() }
        // act
        try await eventually { numbers.done.count == 58 && numbers.givenUp.count == 2 }
        // validate
        #expect(numbers.recoveredFirst)
        #expect(numbers.done.sorted() == Array(1...60).filter { ![7, 30].contains($0) })
        #expect(Set(numbers.done).count == numbers.done.count)
        // Two loops never took the same piece: each finished piece was tried exactly once.
        #expect(numbers.tries.filter { ![7, 30].contains($0.key) }.allSatisfy { $0.value.count == 1 })
    }

    @Test func aPieceThatAlwaysFailsStopsAfterItsTriesAndSaysWhy() async throws {
        let numbers = Numbers(failing: [1])
        numbers.add([1, 2])
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"), backoff: Self.quickBackoff)
        let running = Task { try await queue.run() }
        defer { running.cancel() }
        try await eventually { numbers.givenUp[1] != nil && numbers.done == [2] }
        // Three tries, the waits between them growing as the backoff says (20 ms, then 80 ms).
        let tries = try #require(numbers.tries[1])
        #expect(tries.count == 3)
        #expect(tries[1] - tries[0] >= .milliseconds(20) && tries[2] - tries[1] >= .milliseconds(80))
        #expect(numbers.givenUp[1]?.contains("tried 3 times and could not finish") == true)
        #expect(numbers.done == [2])
    }

    @Test func aPieceThatFailsOnceIsTriedAgainAndFinishes() async throws {
        let numbers = Numbers(flaky: [5])
        numbers.add([5])
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"), backoff: Self.quickBackoff)
        let running = Task { try await queue.run() }
        defer { running.cancel() }
        try await eventually { numbers.done == [5] }
        #expect(numbers.tries[5]?.count == 2 && numbers.givenUp.isEmpty)
    }

    @Test func theBackoffWaitsGrowToTheirLongestAndEnd() {
        #expect(Backoff.standard.wait(afterFailedTries: 1) == .seconds(2))
        #expect(Backoff.standard.wait(afterFailedTries: 2) == .seconds(8))
        #expect(Backoff.standard.wait(afterFailedTries: 3) == nil)
        let enrichment = EnrichmentWorker.retries
        #expect(
            (1..<8).map { enrichment.wait(afterFailedTries: $0) }
                == [60, 120, 240, 480, 960, 1920, 3840].map {
                    .seconds($0)
                })
        #expect(enrichment.wait(afterFailedTries: 8) == nil)
        let capped = Backoff(tries: 10, first: .seconds(1), factor: 10, longest: .seconds(50))
        #expect(capped.wait(afterFailedTries: 9) == .seconds(50))
    }

    @Test func theDoorbellWakesASleepingLoop() async throws {
        // A loop that would otherwise sleep for ten minutes.
        let numbers = Numbers(idleWait: .seconds(600))
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"))
        let running = Task { try await queue.run() }
        defer { running.cancel() }
        try await Task.sleep(for: .milliseconds(100))
        let clock = ContinuousClock()
        let rung = clock.now
        numbers.add([1])
        try await eventually { numbers.done == [1] }
        #expect(numbers.done == [1])
        // Well before the ten minutes the loop would otherwise sleep, even on a busy two-core machine.
        #expect(clock.now - rung < .seconds(150))
    }

    @Test func stoppingReachesTheRunningPiece() async throws {
        let numbers = Numbers(duration: .seconds(600))
        numbers.add([1])
        let queue = BackgroundQueue([numbers], logger: Logger(label: "test"))
        let running = Task { try await queue.run() }
        try await Task.sleep(for: .milliseconds(100))
        let clock = ContinuousClock()
        let stopped = clock.now
        running.cancel()
        _ = await running.result
        // Well before the piece's ten minutes: cancelling reached it (5 s, then 15 s, were missed by full parallel
        // runs whose first minute kept both cooperative threads busy).
        #expect(clock.now - stopped < .seconds(150))
        #expect(numbers.done.isEmpty)
    }
}
