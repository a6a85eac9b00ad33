import GRDB
import Logging
import ServiceLifecycle

/// Runs every kind of background work beside the server and stops it with the server: one loop shape for all of
/// them, woken by a worker's `Doorbell` when work is added, sleeping when there is none, as many loops as a worker's
/// `concurrency`, one retry policy (`Backoff`) and one place that logs a failure and records it on the work's row
/// once every try is spent. Cancellation on shutdown reaches the piece of work that is running (a tesseract run is
/// stopped; an import stops after its batch).
final class BackgroundQueue: Service, Sendable {
    private let lanes: [any Lane]
    let logger: Logger
    /// The database the workers' queues live in: commits to a worker's `watchedTables` ring its doorbell, and
    /// another process's writes (a command, a test's own connection) ring them all. Nil: doorbells and idle waits
    /// only.
    let database: AppDatabase?
    /// How often the queue asks whether another process wrote to the database (`PRAGMA data_version` on the
    /// writer's connection: microseconds, no query of any table).
    static let otherProcessCheck: Duration = .seconds(2)

    /// `activity` hears of every piece of work that ends (an idle server gives memory back after the last one);
    /// `backoff`: how a piece that throws is tried again; `failureRest`: how long a loop rests when it could not even
    /// look for work (the database unreadable).
    init(
        _ workers: [any BackgroundWorker], logger: Logger, activity: ServerActivity? = nil,
        database: AppDatabase? = nil, backoff: Backoff = .standard,
        failureRest: Duration = .seconds(5)
    ) {
        self.database = database
        self.lanes = workers.map {
            Self.lane(for: $0, activity: activity, backoff: backoff, failureRest: failureRest)
        }
        self.logger = logger
    }

    private static func lane<W: BackgroundWorker>(
        for worker: W, activity: ServerActivity?, backoff: Backoff, failureRest: Duration
    ) -> any Lane {
        WorkerLane(worker: worker, activity: activity, backoff: backoff, failureRest: failureRest)
    }

    /// Why the work failed for good, for the person who asked for it: the domain's own words when it has some, never
    /// an internal error's. Each worker's `giveUp` adds what to do next.
    static func reason(for error: any Error, tries: Int) -> String {
        if let error = error as? AppError, let message = error.message { return message }
        return "Shelfed tried \(tries) times and could not finish (the server's log says why)."
    }

    func run() async throws {
        let logger = logger
        let observations = database.map { database in
            lanes.filter { !$0.watchedTables.isEmpty }.map { lane in
                let doorbell = lane.doorbell
                return DatabaseRegionObservation(tracking: lane.watchedTables.map { Table($0) })
                    .start(in: database.writer, onError: { _ in }, onChange: { _ in doorbell.ring() })
            }
        }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for lane in self.lanes {
                    group.addTask { await lane.run(logger: logger) }
                }
                if let database = self.database {
                    let doorbells = self.lanes.map(\.doorbell)
                    group.addTask { await Self.ringOnOtherProcessesWrites(database, doorbells) }
                }
            }
        }
        withExtendedLifetime(observations) {}
    }

    /// Rings every doorbell when another process (or another connection of this one) has committed since the last
    /// look: the writer's `data_version` changes only for commits it did not make itself.
    private static func ringOnOtherProcessesWrites(_ database: AppDatabase, _ doorbells: [Doorbell]) async {
        func version() async -> Int? {
            try? await database.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version")
            }
        }
        var seen = await version()
        while !Task.isCancelled {
            try? await Task.sleep(for: otherProcessCheck)
            guard !Task.isCancelled, let version = await version() else { continue }
            if let seen, seen != version {
                for doorbell in doorbells { doorbell.ring() }
            }
            seen = version
        }
    }
}

/// One worker's loops, behind a type the queue can keep in one list.
private protocol Lane: Sendable {
    var doorbell: Doorbell { get }
    var watchedTables: [String] { get }
    func run(logger: Logger) async
}

private struct WorkerLane<W: BackgroundWorker>: Lane {
    let worker: W
    var doorbell: Doorbell { worker.doorbell }
    var watchedTables: [String] { worker.watchedTables }
    let activity: ServerActivity?
    let backoff: Backoff
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
                try await runWithRetries(work, logger: logger)
                activity?.backgroundWorkFinished()
                if worker.pause > .zero { try await Task.sleep(for: worker.pause) }
            } catch is CancellationError {
                return
            } catch {
                logger.error("\(worker.name): \(error)")
                try? await Task.sleep(for: failureRest)
            }
        }
    }

    /// Runs `work`, trying again after the backoff's waits when it throws; once every try is spent the worker
    /// records the failure on the work's row and the loop goes on to the next piece.
    private func runWithRetries(_ work: W.Work, logger: Logger) async throws {
        var failedTries = 0
        while true {
            do {
                try await worker.run(work)
                return
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                failedTries += 1
                guard let wait = backoff.wait(afterFailedTries: failedTries) else {
                    logger.error("\(worker.name): gave up after \(failedTries) tries: \(error)")
                    try await worker.giveUp(
                        work, reason: BackgroundQueue.reason(for: error, tries: failedTries))
                    return
                }
                logger.warning("\(worker.name): try \(failedTries) failed (\(error)); trying again in \(wait)")
                try await Task.sleep(for: wait)
            }
        }
    }
}
