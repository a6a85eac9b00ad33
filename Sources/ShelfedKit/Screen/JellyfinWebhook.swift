import Foundation
import GRDB

/// One call of the Jellyfin webhook plugin (a "Generic" destination, issue 38), read leniently: the plugin sends
/// numbers as numbers and as zero-padded strings, items without a TMDB or IMDb id, and dozens of stream fields that
/// are not read. Every text is bounded; a field of the wrong type is as good as absent.
struct JellyfinEvent: Decodable, Sendable, Equatable {
    var notificationType: String?
    var itemType: String?
    var itemID: String?
    var name: String?
    var year: Int?
    var seriesName: String?
    var seasonNumber: Int?
    var episodeNumber: Int?
    var playedToCompletion: Bool?
    var played: Bool?
    var userID: String?
    var userName: String?
    var utcTimestamp: String?
    var tmdbID: String?
    var imdbID: String?

    /// The plugin's own names for the fields read.
    private enum Keys: String, CodingKey {
        case notificationType = "NotificationType"
        case itemType = "ItemType"
        case itemID = "ItemId"
        case name = "Name"
        case year = "Year"
        case seriesName = "SeriesName"
        case seasonNumber = "SeasonNumber"
        case episodeNumber = "EpisodeNumber"
        case playedToCompletion = "PlayedToCompletion"
        case played = "Played"
        case userID = "UserId"
        case userName = "NotificationUsername"
        case utcTimestamp = "UtcTimestamp"
        case tmdbID = "Provider_tmdb"
        case imdbID = "Provider_imdb"
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        func text(_ key: Keys, limit: Int = 500) -> String? {
            guard let value = try? container.decodeIfPresent(String.self, forKey: key) else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= limit, !NewBookForm.hasControlCharacters(trimmed) else {
                return nil
            }
            return trimmed
        }
        func number(_ key: Keys, in range: ClosedRange<Int>) -> Int? {
            let value =
                (try? container.decodeIfPresent(Int.self, forKey: key))
                ?? text(key, limit: 10).flatMap { Int($0) }
            return value.flatMap { range.contains($0) ? $0 : nil }
        }
        notificationType = text(.notificationType, limit: 50)
        itemType = text(.itemType, limit: 50)
        // As the API writes it or the plugin does (with or without dashes): one item, one id.
        itemID = text(.itemID, limit: 64).map(JellyfinWebhookStore.compactID)
        name = text(.name)
        year = number(.year, in: BoundedNumber.year)
        seriesName = text(.seriesName)
        seasonNumber = number(.seasonNumber, in: ScreenLimits.seasonNumbers)
        episodeNumber = number(.episodeNumber, in: ScreenLimits.episodeNumbers)
        playedToCompletion = try? container.decodeIfPresent(Bool.self, forKey: .playedToCompletion)
        played = try? container.decodeIfPresent(Bool.self, forKey: .played)
        userID = text(.userID, limit: 64)
        userName = text(.userName, limit: 100)
        utcTimestamp = text(.utcTimestamp, limit: 40)
        tmdbID = text(.tmdbID, limit: 20).flatMap { $0.allSatisfy(\.isNumber) ? $0 : nil }
        imdbID = text(.imdbID, limit: 20).flatMap { ScreenImportValues.imdbID($0) }
    }

    /// Played to the end: a playback stopped at its end, or the item marked played. `UserDataSaved` with
    /// `SaveReason: TogglePlayed` is also sent when "played" is taken off (`Played: false`): only `Played` says which.
    var isFinished: Bool {
        switch notificationType {
        case "PlaybackStop": playedToCompletion == true
        case "UserDataSaved": played == true
        default: false
        }
    }

    /// The day it was played, in the household's calendar: from `UtcTimestamp`, never after today (today when the
    /// stamp cannot be read: the webhook is called as it happens).
    func day(in timeZone: TimeZone, today: String) -> String {
        playedDay(in: timeZone, today: today) ?? today
    }

    /// The day `UtcTimestamp` says, never after today; nil when it says none (a played history's item without a
    /// date is not dated today: it would count again each day it is brought in).
    func playedDay(in timeZone: TimeZone, today: String) -> String? {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        // Jellyfin writes seven decimal places; the parser takes at most three.
        let stamp = utcTimestamp.map { text -> String in
            guard let dot = text.firstIndex(of: "."),
                let zone = text[dot...].firstIndex(where: { !$0.isNumber && $0 != "." })
            else { return text }
            return String(text[..<dot]) + "." + String(text[text.index(after: dot)..<zone].prefix(3)) + text[zone...]
        }
        let whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        // Without decimals (another sender, a hand-made test call) the stamp is read whole.
        guard let date = stamp.flatMap({ parser.date(from: $0) ?? whole.date(from: $0) }) else { return nil }
        let day = AppClock.dateString(date, in: timeZone)
        return day > today ? today : day
    }
}

/// What the webhook did with a call: said back to Jellyfin's plugin (which only logs it) and to the tests.
enum JellyfinOutcome: String, Sendable, Encodable {
    /// A film or episode was marked watched.
    case counted
    /// The same item for the same person on the same day was counted already.
    case alreadyCounted = "already-counted"
    /// Not a finished playback (paused, stopped early, unmarked, another event): nothing to do.
    case ignored
    /// A show, or an episode of it, the person does not have: nothing is added on a guess.
    case notInLibrary = "not-in-library"
}

/// Marks what a member finished in Jellyfin (issue 38): a film is watched that day (added to Watched when it is not
/// on their shelves, with its ids, as an import adds one), an episode of a show on their shelves is watched in its
/// open viewing. Each item counts once a day per person.
struct JellyfinWebhookStore: Sendable {
    let db: AppDatabase

    static let secretKey = "jellyfin_webhook_secret"

    /// Whether `secret` is the household's webhook secret (compared by digest, in constant time); nil when no
    /// secret was made.
    func accepts(secret: String?) async throws -> Bool? {
        guard
            let digest = try await db.read({ db in
                try String.fetchOne(
                    db, sql: "SELECT value FROM household_setting WHERE key = ?", arguments: [Self.secretKey])
            })
        else { return nil }
        guard let secret, secret.utf8.count <= 200 else { return false }
        let given = Array(APIKeyStore.digest(of: secret).utf8)
        let kept = Array(digest.utf8)
        guard given.count == kept.count else { return false }
        return zip(given, kept).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Makes a new secret (the old one stops working at once) and returns it: shown once, kept as its digest.
    func newSecret(now: Date) async throws -> String {
        let secret = RandomHex.secret(byteCount: 24)
        try await db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO household_setting (key, value, changed_at) VALUES (?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at
                    """, arguments: [Self.secretKey, APIKeyStore.digest(of: secret), now])
        }
        return secret
    }

    func forgetSecret() async throws {
        try await db.write { db in
            try db.execute(sql: "DELETE FROM household_setting WHERE key = ?", arguments: [Self.secretKey])
        }
    }

    /// The member linked to the event's Jellyfin user (by id, or by user name without case); nil for anyone else.
    static func member(for event: JellyfinEvent, _ db: Database) throws -> Int64? {
        let keys = [event.userID.map(Self.compactID), event.userName?.lowercased()].compactMap { $0 }
        guard !keys.isEmpty else { return nil }
        return try Row.fetchAll(
            db, sql: "SELECT id, jellyfin_user FROM user WHERE jellyfin_user IS NOT NULL"
        ).first { row in
            let linked: String = row["jellyfin_user"]
            return keys.contains(Self.compactID(linked)) || keys.contains(linked.lowercased())
        }?["id"]
    }

    /// A Jellyfin id as the plugin writes it: 32 lowercase hex digits (its API writes it with dashes).
    static func compactID(_ id: String) -> String {
        id.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Counts a finished playback for `userID`.
    func count(_ event: JellyfinEvent, for userID: Int64, day: String, now: Date) async throws -> JellyfinOutcome {
        guard event.isFinished, let itemID = event.itemID else { return .ignored }
        return try await db.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO jellyfin_event (user_id, item_id, day, counted_at) VALUES (?, ?, ?, ?)",
                arguments: [userID, itemID, day, now])
            guard db.changesCount > 0 else { return .alreadyCounted }
            let outcome: JellyfinOutcome =
                switch event.itemType {
                case "Movie": try Self.watchFilm(event, for: userID, day: day, now: now, db)
                case "Episode": try Self.watchEpisode(event, for: userID, day: day, now: now, db)
                default: .ignored
                }
            // Only what was counted is remembered: an episode of a show added later counts when it comes again.
            if outcome != .counted {
                try db.execute(
                    sql: "DELETE FROM jellyfin_event WHERE user_id = ? AND item_id = ? AND day = ?",
                    arguments: [userID, itemID, day])
            }
            return outcome
        }
    }

    /// The person's titles of `kind`, with what a playback is matched on.
    private static func titles(of userID: Int64, kind: TitleKind, _ db: Database) throws -> [Row] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT user_book.book_id, book.title, book.original_title, book.published_date, book.provider_key,
                    book.external_ids
                FROM user_book JOIN book ON book.id = user_book.book_id
                WHERE user_book.user_id = ? AND book.kind = ?
                """, arguments: [userID, kind.rawValue])
    }

    private static func watchFilm(_ event: JellyfinEvent, for userID: Int64, day: String, now: Date, _ db: Database)
        throws -> JellyfinOutcome
    {
        guard let name = event.name else { return .ignored }
        let films = try titles(of: userID, kind: .movie, db)
        let found =
            films.first { row in
                if let tmdb = event.tmdbID, row["provider_key"] == "tmdb:movie:\(tmdb)" { return true }
                guard let imdb = event.imdbID, let ids: String = row["external_ids"] else { return false }
                return ids.contains("\"\(imdb)\"")
            }
            ?? films.first { row in
                let titles = [row["title"], row["original_title"]].compactMap { $0 as String? }
                let year = (row["published_date"] as String?).flatMap { Int($0.prefix(4)) }
                return titles.contains { LibraryMatch.fold($0) == LibraryMatch.fold(name) }
                    && (year == nil || event.year == nil || year == event.year)
            }
        let bookID: Int64
        if let found {
            bookID = found["book_id"]
        } else {
            var ids: [String: String] = [:]
            ids["imdb"] = event.imdbID
            ids["tmdb"] = event.tmdbID
            let writer = CatalogWriter(db: db)
            bookID = try writer.insert(
                CatalogWriter.NewRow(
                    title: name, publishedDate: event.year.map(String.init), source: .manual, owner: userID,
                    externalIDs: ids, kind: .movie),
                at: now.databaseValue)
            _ = try writer.insert(
                CatalogWriter.NewEntry(userID: userID, bookID: bookID, shelf: .wantToRead, addedAt: now.databaseValue),
                at: now.databaseValue)
        }
        guard var entry = try LibraryStore.entry(bookID: bookID, of: userID, db)?.userBook else { return .ignored }
        if entry.shelf != .read { try entry.move(to: .read, today: day, now: now, db) }
        if try !entry.hasViewing(on: day, db) { try entry.addViewing(on: day, db) }
        entry.updatedAt = now
        try entry.update(db)
        return .counted
    }

    private static func watchEpisode(
        _ event: JellyfinEvent, for userID: Int64, day: String, now: Date, _ db: Database
    ) throws -> JellyfinOutcome {
        guard let series = event.seriesName, let season = event.seasonNumber, let number = event.episodeNumber else {
            return .ignored
        }
        let shows = try titles(of: userID, kind: .show, db)
        guard
            let show = shows.first(where: { row in
                [row["title"], row["original_title"]].compactMap { $0 as String? }.contains {
                    LibraryMatch.fold($0) == LibraryMatch.fold(series)
                }
            }),
            let episode = try Int64.fetchOne(
                db, sql: "SELECT id FROM episode WHERE book_id = ? AND season = ? AND number = ?",
                arguments: [show["book_id"], season, number]),
            var entry = try LibraryStore.entry(bookID: show["book_id"], of: userID, db)?.userBook
        else { return .notInLibrary }
        _ = try LibraryStore.markEpisodes([episode], watched: true, in: &entry, today: day, now: now, db)
        entry.updatedAt = now
        try entry.update(db)
        return .counted
    }
}
