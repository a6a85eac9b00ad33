import Foundation
import Logging

/// Reads the household's Jellyfin library (`JellyfinLibrary`) when the admin links the server (saving it commits to
/// `household_setting`, which rings the doorbell) and every six hours after. A server that is off keeps the last
/// list it gave, and is asked again in six hours: a Jellyfin at home is often asleep.
final class JellyfinLibraryWorker: BackgroundWorker {
    let library: JellyfinLibrary
    let logger: Logger
    let clock: AppClock
    let name = "Jellyfin library"
    let doorbell = Doorbell()
    let idleWait: Duration = .seconds(3_600)
    let watchedTables = ["household_setting"]
    let pause: Duration = .zero

    init(library: JellyfinLibrary, logger: Logger, clock: AppClock) {
        self.library = library
        self.logger = logger
        self.clock = clock
    }

    func recover() async throws {}

    func next() async throws -> Date? {
        let now = clock.now()
        return try await library.isDue(now: now) ? now : nil
    }

    func run(_ now: Date) async throws {
        do {
            if let count = try await library.refresh(now: now) {
                logger.info("The house's Jellyfin holds \(count) films and shows")
            }
        } catch let failure as UpstreamFailure {
            logger.info("Reading the house's Jellyfin library: \(failure); trying again in six hours")
            try await library.markChecked(now: now)
        }
    }

    func giveUp(_ now: Date, reason: String) async throws {
        logger.warning("Reading the house's Jellyfin library failed: \(reason)")
        try await library.markChecked(now: now)
    }
}
