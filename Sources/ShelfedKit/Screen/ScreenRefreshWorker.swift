import Foundation
import Logging

/// Keeps films and shows from the providers current (DESIGN §17): a show still airing is asked again weekly, so its
/// new episodes arrive (and come back to whoever watched it to the end as "new episodes"); any other title after six
/// months. One title at a time, only titles someone has, through the search's cache-bypassing details request and
/// its breakers: offline, nothing is asked and each title waits six hours before it is tried again.
final class ScreenRefreshWorker: BackgroundWorker {
    /// A catalog row due for a refresh.
    struct Due: Sendable, Equatable {
        let bookID: Int64
        let source: ScreenSource
        let kind: TitleKind
        let providerID: String
        /// A provider's shared row: its details follow the provider. A person's own copy (made by editing) keeps
        /// what they typed; only its episodes are brought up to date.
        let shared: Bool
        /// How long after a check it is due again: a week for a show still airing, else six months.
        var period: TimeInterval = ScreenRefreshWorker.settledAge
        /// The language chosen by whoever has had the title longest: its synopsis stays in the words it was added
        /// in (TMDB's `language=`). nil: they follow their browser, and the server's own language is asked.
        var language: Language? = nil
    }

    let store: ScreenRefreshStore
    let titles: TitleSearchService
    let logger: Logger
    let clock: AppClock
    /// `SHELFED_LANGUAGE`: what a title is asked in when its longest holder chose none.
    let serverLanguage: Language
    let name = "Film and show refresh"
    let doorbell = Doorbell()
    /// Titles fall due with time alone: an hourly look is plenty, and an idle server wakes no more often for it.
    let idleWait: Duration = .seconds(3_600)
    /// Between two titles: a polite client of free services.
    let pause: Duration

    static let airingAge: TimeInterval = 7 * 86_400
    static let settledAge: TimeInterval = 182 * 86_400
    /// A title whose provider did not answer is tried again after this long, not at the next look.
    static let retryAfter: TimeInterval = 6 * 3_600

    init(
        db: AppDatabase, titles: TitleSearchService, logger: Logger, clock: AppClock,
        serverLanguage: Language = .en, pause: Duration = .seconds(2)
    ) {
        self.store = ScreenRefreshStore(db: db)
        self.titles = titles
        self.logger = logger
        self.clock = clock
        self.serverLanguage = serverLanguage
        self.pause = pause
    }

    /// Nothing runs across a restart: a refresh cut off is simply due again.
    func recover() async throws {}

    /// The title checked longest ago among those due (`ScreenRefreshStore.nextDue`).
    func next() async throws -> Due? {
        try await store.nextDue(now: clock.now(), timeZone: clock.timeZone)
    }

    /// Reads a provider key ("tmdb:movie:550", "tmdb:show:1399", "tvmaze:44778", "wikidata:Q37550044").
    static func due(bookID: Int64, key: String, kind: String, _ shared: Bool) -> Due? {
        guard let kind = TitleKind(rawValue: kind), kind != .book else { return nil }
        let parts = key.split(separator: ":").map(String.init)
        switch (parts.first, parts.count) {
        case ("tmdb", 3) where parts[1] == kind.rawValue:
            return Due(bookID: bookID, source: .tmdb, kind: kind, providerID: parts[2], shared: shared)
        case ("tvmaze", 2) where kind == .show:
            return Due(bookID: bookID, source: .tvmaze, kind: kind, providerID: parts[1], shared: shared)
        case ("wikidata", 2) where kind == .movie:
            return Due(bookID: bookID, source: .wikidata, kind: kind, providerID: parts[1], shared: shared)
        default:
            return nil
        }
    }

    /// Asks the provider and writes what it says; a provider that cannot answer now is asked again later.
    func run(_ due: Due) async throws {
        let now = clock.now()
        do {
            let title = try await Language.$current.withValue(due.language ?? serverLanguage) {
                try await titles.title(source: due.source, id: due.providerID, kind: due.kind, fresh: true)
            }
            let added = try await store.apply(title, to: due, at: now)
            if added > 0 { logger.info("\(title.title): \(added) new episodes from \(due.source.rawValue)") }
        } catch let failure as UpstreamFailure {
            let later = failure.isTransient || failure.isUnavailable
            logger.notice("Refreshing title \(due.bookID) from \(due.source.rawValue): \(failure)")
            // Gone from the provider, or refused: looked at again a whole period later. Down: in six hours.
            let stamp = later ? now.addingTimeInterval(Self.retryAfter - due.period) : now
            try await store.stamp(due.bookID, at: stamp)
        }
    }

    func giveUp(_ due: Due, reason: String) async throws {
        logger.warning("Refreshing title \(due.bookID) failed: \(reason)")
        try await store.stamp(due.bookID, at: clock.now())
    }
}

extension UpstreamFailure {
    /// The provider could not be asked at all just now (its breaker is open, or it asks us to wait).
    var isUnavailable: Bool {
        switch self {
        case .circuitOpen, .rateLimited, .unreachable: true
        default: false
        }
    }
}
