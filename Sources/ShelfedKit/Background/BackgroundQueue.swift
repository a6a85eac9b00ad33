import Logging
import ServiceLifecycle

/// Runs every kind of background work beside the server and stops it with the server: one loop shape for all of
/// them, woken by a worker's `Doorbell` when work is added, sleeping when there is none, as many loops as a worker's
/// `concurrency`, and one place that logs a failure and waits before the loop tries again. Cancellation on shutdown
/// reaches the piece of work that is running (a tesseract run is stopped; an import stops after its batch).
final class BackgroundQueue: Service, Sendable {
    private let lanes: [any Lane]
    let logger: Logger

    /// `failureRest`: how long a loop rests after a piece of work failed in a way its worker did not handle.
    init(_ workers: [any BackgroundWorker], logger: Logger, failureRest: Duration = .seconds(5)) {
        self.lanes = workers.map { Self.lane(for: $0, failureRest: failureRest) }
        self.logger = logger
    }

    private static func lane<W: BackgroundWorker>(for worker: W, failureRest: Duration) -> any Lane {
        WorkerLane(worker: worker, failureRest: failureRest)
    }

    func run() async throws {
        let logger = logger
        try await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for lane in self.lanes {
                    group.addTask { await lane.run(logger: logger) }
                }
            }
        }
    }
}

/// One worker's loops, behind a type the queue can keep in one list.
private protocol Lane: Sendable {
    func run(logger: Logger) async
}

private struct WorkerLane<W: BackgroundWorker>: Lane {
    let worker: W
    let failureRest: Duration

    func run(logger: Logger) async {
        do {
            try await worker.recover()
        } catch is CancellationError {
            return
        } catch {
            logger.error("\(worker.name): putting right what a restart left failed: \(error)")
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, worker.concurrency) {
                let signal = worker.doorbell.signal()
                group.addTask { await loop(waitingOn: signal, logger: logger) }
            }
        }
    }

    private func loop(waitingOn signal: WakeSignal, logger: Logger) async {
        while !Task.isCancelled {
            do {
                guard let work = try await worker.next() else {
                    await signal.wait(atMost: worker.idleWait)
                    continue
                }
                try await worker.run(work)
                if worker.pause > .zero { try await Task.sleep(for: worker.pause) }
            } catch is CancellationError {
                return
            } catch {
                logger.error("\(worker.name): \(error)")
                try? await Task.sleep(for: failureRest)
            }
        }
    }
}
