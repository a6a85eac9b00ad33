import Foundation
import Logging

/// Looks up, one at a time, the films and shows imports wrote without a provider (`ImportedTitleMatching`), after
/// the import and never during it: an import never waits on the network, and never drops a row because it is down.
/// A provider that does not answer leaves the row waiting six hours; an import finishing rings the doorbell.
final class ImportedTitleMatchWorker: BackgroundWorker {
    let matching: ImportedTitleMatching
    let logger: Logger
    let clock: AppClock
    let name = "Imported title matching"
    let doorbell = Doorbell()
    let idleWait: Duration = .seconds(3_600)
    /// New rows come from imports (and restores); both write `import_job` or `book` in the commit that adds them.
    let watchedTables = ["import_job"]
    /// Between two titles: a polite client of free services.
    let pause: Duration

    static let retryAfter: TimeInterval = 6 * 3_600
    /// A title no provider knew is asked about again after six months.
    static let askAgainAfter: TimeInterval = 182 * 86_400

    init(matching: ImportedTitleMatching, logger: Logger, clock: AppClock, pause: Duration = .seconds(2)) {
        self.matching = matching
        self.logger = logger
        self.clock = clock
        self.pause = pause
    }

    func recover() async throws {}

    func next() async throws -> ImportedTitleMatching.Due? {
        try await matching.nextDue(now: clock.now())
    }

    func run(_ due: ImportedTitleMatching.Due) async throws {
        let now = clock.now()
        do {
            switch try await matching.find(due) {
            case .one(let title):
                // Not written (no provider key, or the row changed meanwhile): not asked again at once.
                if try await !matching.attach(title, to: due.bookID, now: now) {
                    try await matching.mark(due.bookID, "none", at: now)
                }
            case .several(let candidates):
                try await matching.offer(candidates, for: due.bookID, now: now)
            case .none:
                try await matching.mark(due.bookID, "none", at: now)
            }
        } catch let failure as UpstreamFailure {
            // Down or resting: asked again in six hours. Anything else it said is an answer: no match.
            let waits = failure.isTransient || failure.isUnavailable
            logger.info("Matching imported title \(due.bookID): \(failure)\(waits ? "; trying later" : "")")
            try await matching.mark(due.bookID, waits ? "waiting" : "none", at: now)
        }
    }

    func giveUp(_ due: ImportedTitleMatching.Due, reason: String) async throws {
        logger.warning("Matching imported title \(due.bookID) failed: \(reason)")
        try await matching.mark(due.bookID, "none", at: clock.now())
    }
}
