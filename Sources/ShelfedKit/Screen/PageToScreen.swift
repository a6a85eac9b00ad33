import Foundation
import GRDB
import Logging

/// Page to screen (issue 38): the book a film or show is based on, from Wikidata's "based on" (P144), looked up in
/// the background for titles someone has and kept (`adaptation`), so a page never waits for the network. A film
/// added from Wikidata is its own item; a TMDB or TVmaze title is found by its id (Wikidata's P4947, P4983, P8600),
/// or by the Wikidata id TMDB gave.
struct PageToScreen: Sendable {
    let db: AppDatabase
    let wikidata: WikidataClient

    /// Looked up again after six months (Wikidata grows); a lookup that failed is tried again after six hours.
    static let recheckAge: TimeInterval = 182 * 86_400
    static let retryAfter: TimeInterval = 6 * 3_600

    /// A film or show someone has that was never looked up, or not for six months; never looked up first (SQLite
    /// sorts nil first), read in `book_adaptations_due`'s order.
    func nextUnchecked(now: Date) async throws -> Int64? {
        try await db.read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT book.id FROM book
                    WHERE book.kind IN ('movie', 'show') AND book.provider_key IS NOT NULL
                        AND (book.adaptations_checked_at IS NULL OR book.adaptations_checked_at < ?)
                        AND EXISTS (SELECT 1 FROM user_book WHERE user_book.book_id = book.id)
                    ORDER BY book.adaptations_checked_at LIMIT 1
                    """, arguments: [now.addingTimeInterval(-Self.recheckAge)])
        }
    }

    /// Looks up what catalog row `bookID` is based on and keeps it (replacing what was kept); an answer of nothing
    /// is kept too. Throws what Wikidata's client throws, having stamped the row to be tried again later.
    func check(_ bookID: Int64, now: Date) async throws {
        guard
            let (key, externalIDs) = try await db.read({ db -> (String?, String?)? in
                try Row.fetchOne(
                    db, sql: "SELECT provider_key, external_ids FROM book WHERE id = ?", arguments: [bookID]
                ).map { ($0["provider_key"], $0["external_ids"]) }
            })
        else { return }
        var sources: [WikidataClient.Source] = []
        do {
            if let item = try await itemID(key: key, externalIDs: externalIDs) {
                sources = try await wikidata.basedOn(item)
            }
        } catch {
            try await stamp(bookID, at: now.addingTimeInterval(Self.retryAfter - Self.recheckAge))
            throw error
        }
        try await db.write { [sources] db in
            try db.execute(sql: "DELETE FROM adaptation WHERE screen_book_id = ?", arguments: [bookID])
            for source in sources {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO adaptation (screen_book_id, source_item, source_title, source_author)
                        VALUES (?, ?, ?, ?)
                        """, arguments: [bookID, source.itemID, source.title, source.author])
            }
            try db.execute(
                sql: "UPDATE book SET adaptations_checked_at = ? WHERE id = ?", arguments: [now, bookID])
        }
    }

    func stamp(_ bookID: Int64, at date: Date) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE book SET adaptations_checked_at = ? WHERE id = ?", arguments: [date, bookID])
        }
    }

    /// The Wikidata item of a provider's title: its own key, the id TMDB gave, or a search by the provider's id.
    private func itemID(key: String?, externalIDs: String?) async throws -> String? {
        let parts = (key ?? "").split(separator: ":").map(String.init)
        if parts.first == "wikidata", parts.count == 2 { return ScreenIDs.wikidataID(parts[1]) }
        if let data = externalIDs?.data(using: .utf8),
            let ids = try? JSONDecoder().decode([String: String].self, from: data),
            let item = ids["wikidata"].flatMap(ScreenIDs.wikidataID)
        {
            return item
        }
        switch (parts.first, parts.count) {
        case ("tmdb", 3) where parts[1] == "movie": return try await wikidata.item(with: "P4947", value: parts[2])
        case ("tmdb", 3) where parts[1] == "show": return try await wikidata.item(with: "P4983", value: parts[2])
        case ("tvmaze", 2): return try await wikidata.item(with: "P8600", value: parts[1])
        default: return nil
        }
    }
}

/// Looks up, one title at a time, what the films and shows people add are based on (`PageToScreen`).
final class PageToScreenWorker: BackgroundWorker {
    let finder: PageToScreen
    let logger: Logger
    let clock: AppClock
    let name = "Page to screen"
    let doorbell = Doorbell()
    let idleWait: Duration = .seconds(3_600)
    /// A new title on someone's shelf is work.
    let watchedTables = ["user_book"]
    let pause: Duration = .seconds(2)

    init(finder: PageToScreen, logger: Logger, clock: AppClock) {
        self.finder = finder
        self.logger = logger
        self.clock = clock
    }

    func recover() async throws {}

    func next() async throws -> Int64? {
        try await finder.nextUnchecked(now: clock.now())
    }

    /// A provider that cannot answer is not the worker's failure: the row is tried again in six hours.
    func run(_ bookID: Int64) async throws {
        do {
            try await finder.check(bookID, now: clock.now())
        } catch let failure as UpstreamFailure {
            logger.info("Page to screen: Wikidata did not answer for title \(bookID) (\(failure)); trying later")
        }
    }

    /// Not asked again for six months.
    func giveUp(_ bookID: Int64, reason: String) async throws {
        logger.warning("Page to screen for title \(bookID) failed: \(reason)")
        try await finder.stamp(bookID, at: clock.now())
    }
}
