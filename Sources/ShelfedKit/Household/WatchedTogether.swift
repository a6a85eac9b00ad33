import Foundation
import GRDB

/// "Watched together" (issue 38, part 1): a person who watched a film, or a day's episodes of a show, with others in
/// the house says so from its page; each person named finds it in their For you list and, on their yes, gets it on
/// their own shelf with the same day. Nothing is written to another person's shelf without that yes, and a no keeps
/// their shelf as it was. Anyone in the house may be told, as anyone may be recommended a book: the sender chooses to
/// tell that one person, so neither need share their reading.
struct WatchedTogetherStore: Sendable {
    let db: AppDatabase

    /// How many of a person's viewing days the page offers to tell about.
    static let offeredDays = 10

    enum Refusal: Error, Equatable {
        /// Not a film or show of the sender's, or no viewing of it on that day.
        case noViewing
        /// Someone who is not another member of the house.
        case notAMember
    }

    /// An offer waiting for the recipient's answer.
    struct Waiting: Sendable, Equatable {
        let id: Int64
        let from: String
        let title: String
        let kind: TitleKind
        let day: String
        /// For a show: how many episodes and the first and last, as season × 100,000 + number.
        let episodes: [Int]
        /// The recipient's own page for it, when they have it already.
        let recipientBookID: Int64?
    }

    /// What the sender told about one title, and what came of it; or what the person accepted from someone.
    struct Told: Sendable, Equatable {
        let member: String
        let day: String
        /// nil while it waits, true when they added it, false when they said no; always true for one accepted.
        let answer: Bool?
        /// The person accepted it from `member` (rather than told them).
        let received: Bool
    }

    /// Tells each of `members` that `sender` watched their title `bookID` with them on `day`: a film they have a
    /// viewing of that day, or the episodes of a show they marked watched that day. Telling the same person about the
    /// same day again asks again (with the day's episodes as they are now).
    func offer(bookID: Int64, day: String, from sender: Int64, to members: [Int64], now: Date) async throws {
        try await db.write { db in
            guard let entry = try LibraryStore.entry(bookID: bookID, of: sender, db),
                try Self.viewingDays(of: entry, limit: 1_000, db).contains(day)
            else { throw Refusal.noViewing }
            let episodes: String? =
                entry.book.kind == .show
                ? Self.json(try Self.episodeCodes(bookID: bookID, userID: sender, day: day, db)) : nil
            for member in Set(members) {
                guard
                    member != sender,
                    try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ?", arguments: [member]) == true
                else { throw Refusal.notAMember }
                try db.execute(
                    sql: """
                        INSERT INTO watched_together (from_user, to_user, book_id, day, episodes, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (from_user, book_id, to_user, day) DO UPDATE SET episodes = excluded.episodes,
                            created_at = excluded.created_at, answer = NULL, answered_at = NULL
                        """, arguments: [sender, member, bookID, day, episodes, now])
            }
        }
    }

    /// The days the person watched their film (its latest viewing and the kept ones) or episodes of their show, newest
    /// first: what they can tell someone about.
    static func viewingDays(of entry: LibraryEntry, limit: Int = offeredDays, _ db: Database) throws -> [String] {
        switch entry.book.kind {
        case .movie:
            guard entry.userBook.shelf == .read else { return [] }
            return try String.fetchAll(
                db,
                sql: """
                    SELECT day FROM (
                        SELECT ? AS day UNION SELECT finished_at FROM read_through WHERE user_book_id = ?)
                    WHERE day IS NOT NULL ORDER BY day DESC LIMIT ?
                    """, arguments: [entry.userBook.finishedAt, entry.userBookID, limit])
        case .show:
            return try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT episode_watch.watched_on FROM show_viewing
                    JOIN episode_watch ON episode_watch.viewing_id = show_viewing.id
                    WHERE show_viewing.user_id = ? AND show_viewing.book_id = ?
                    ORDER BY episode_watch.watched_on DESC LIMIT ?
                    """, arguments: [entry.userBook.userId, entry.bookID, limit])
        case .book:
            return []
        }
    }

    /// The episodes the person marked watched on `day`, as season × 100,000 + number.
    private static func episodeCodes(bookID: Int64, userID: Int64, day: String, _ db: Database) throws -> [Int] {
        try Int.fetchAll(
            db,
            sql: """
                SELECT DISTINCT episode.season * 100000 + episode.number FROM show_viewing
                JOIN episode_watch ON episode_watch.viewing_id = show_viewing.id
                JOIN episode ON episode.id = episode_watch.episode_id
                WHERE show_viewing.user_id = ? AND show_viewing.book_id = ? AND episode_watch.watched_on = ?
                ORDER BY 1
                """, arguments: [userID, bookID, day])
    }

    /// What waits for `userID`'s answer, newest first.
    static func waiting(for userID: Int64, _ db: Database) throws -> [Waiting] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT watched_together.id, sender.display_name, book.title, book.kind, watched_together.day,
                    watched_together.episodes,
                    (SELECT mine.book_id FROM user_book AS mine WHERE mine.user_id = watched_together.to_user
                        AND mine.book_id IN (\(Self.sameTitle("watched_together.book_id"))) LIMIT 1)
                FROM watched_together JOIN user AS sender ON sender.id = watched_together.from_user
                JOIN book ON book.id = watched_together.book_id
                WHERE watched_together.to_user = ? AND watched_together.answer IS NULL
                ORDER BY watched_together.created_at DESC, watched_together.id DESC LIMIT 50
                """, arguments: [userID]
        ).map { row in
            Waiting(
                id: row[0], from: row[1], title: row[2], kind: TitleKind(rawValue: row[3]) ?? .movie, day: row[4],
                episodes: Self.codes(row[5]), recipientBookID: row[6])
        }
    }

    /// The catalog rows that are the same title as `column`'s: the row itself, and a provider's title shared under
    /// the same key.
    static func sameTitle(_ column: String) -> String {
        """
        SELECT \(column) UNION ALL SELECT same.id FROM book AS this JOIN book AS same
            ON same.provider_key = this.provider_key AND same.kind = this.kind AND same.id != this.id
        WHERE this.id = \(column) AND this.provider_key IS NOT NULL
        """
    }

    /// Episode codes as a JSON array of numbers, as `episodes` keeps them.
    static func json(_ codes: [Int]) -> String { "[" + codes.map(String.init).joined(separator: ",") + "]" }

    static func codes(_ json: String?) -> [Int] {
        guard let data = json?.data(using: .utf8), let codes = try? JSONDecoder().decode([Int].self, from: data)
        else { return [] }
        return codes
    }

    /// Who the person told about their title `bookID`, and who told them about it and was answered yes.
    static func told(bookID: Int64, userID: Int64, _ db: Database) throws -> [Told] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM (
                    SELECT member.display_name, watched_together.day, watched_together.answer, 0 AS received
                    FROM watched_together JOIN user AS member ON member.id = watched_together.to_user
                    WHERE watched_together.from_user = ? AND watched_together.book_id = ?
                    UNION ALL
                    SELECT member.display_name, watched_together.day, watched_together.answer, 1
                    FROM watched_together JOIN user AS member ON member.id = watched_together.from_user
                    WHERE watched_together.recipient_book_id = ? AND watched_together.to_user = ?
                        AND watched_together.answer = 'yes')
                ORDER BY day DESC, display_name COLLATE NOCASE LIMIT 20
                """, arguments: [userID, bookID, bookID, userID]
        ).map { row in
            let answer: String? = row[2]
            return Told(member: row[0], day: row[1], answer: answer.map { $0 == "yes" }, received: row[3])
        }
    }

    /// What came of an answer: where the title is on the recipient's shelves.
    struct Accepted: Sendable, Equatable {
        let bookID: Int64
        let kind: TitleKind
    }

    /// The recipient's yes: the title goes on their shelf (their own entry for it, or a new one) with a viewing on the
    /// offer's day — the film watched that day, or the show's episodes watched that day in their open viewing. Nil
    /// when there is no such offer waiting for them.
    func accept(_ id: Int64, recipient: Int64, now: Date) async throws -> Accepted? {
        try await db.write { db in
            guard
                let offer = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT watched_together.book_id, watched_together.day, watched_together.episodes, book.kind
                        FROM watched_together JOIN book ON book.id = watched_together.book_id
                        WHERE watched_together.id = ? AND watched_together.to_user = ?
                            AND watched_together.answer IS NULL
                        """, arguments: [id, recipient])
            else { return nil }
            let day: String = offer["day"]
            let kind = TitleKind(rawValue: offer["kind"]) ?? .movie
            let bookID = try Self.recipientsBook(for: offer["book_id"], recipient: recipient, now: now, db)
            guard var entry = try LibraryStore.entry(bookID: bookID, of: recipient, db)?.userBook else { return nil }
            switch kind {
            case .show:
                let ids = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM episode WHERE book_id = ?
                            AND season * 100000 + number IN (SELECT value FROM json_each(?))
                        """, arguments: [bookID, Self.json(Self.codes(offer["episodes"]))])
                if !ids.isEmpty {
                    _ = try LibraryStore.markEpisodes(ids, watched: true, in: &entry, today: day, now: now, db)
                }
            case .movie, .book:
                if entry.shelf != .read {
                    try entry.move(to: .read, today: day, now: now, db)
                }
                if try !entry.hasViewing(on: day, db) { try entry.addViewing(on: day, db) }
            }
            entry.updatedAt = now
            try entry.update(db)
            try db.execute(
                sql: """
                    UPDATE watched_together SET answer = 'yes', answered_at = ?, recipient_book_id = ? WHERE id = ?
                    """, arguments: [now, bookID, id])
            return Accepted(bookID: bookID, kind: kind)
        }
    }

    /// The recipient's no: nothing is written to their shelves. False when there is no such offer waiting for them.
    func decline(_ id: Int64, recipient: Int64, now: Date) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE watched_together SET answer = 'no', answered_at = ?
                    WHERE id = ? AND to_user = ? AND answer IS NULL
                    """, arguments: [now, id, recipient])
            return db.changesCount > 0
        }
    }

    /// The recipient's catalog row for the sender's title, their shelf entry made if they had none (on Want to watch,
    /// before the viewing moves it): a provider's shared row is shared, a row the sender typed or imported is copied
    /// into one of the recipient's own, with its episodes, as a book from the house is (`HousemateController`).
    private static func recipientsBook(for senderBook: Int64, recipient: Int64, now: Date, _ db: Database) throws
        -> Int64
    {
        if let mine = try Int64.fetchOne(
            db,
            sql: """
                SELECT book_id FROM user_book WHERE user_id = ? AND book_id IN (\(Self.sameTitle("?"))) LIMIT 1
                """, arguments: [recipient, senderBook, senderBook])
        {
            return mine
        }
        let owner = try Int64.fetchOne(db, sql: "SELECT owner_user_id FROM book WHERE id = ?", arguments: [senderBook])
        let bookID = owner == nil ? senderBook : try copy(senderBook, for: recipient, now: now, db)
        _ = try CatalogWriter(db: db).insert(
            CatalogWriter.NewEntry(userID: recipient, bookID: bookID, shelf: .wantToRead, addedAt: now.databaseValue),
            at: now.databaseValue)
        return bookID
    }

    /// A copy of someone's own catalog row (and its authors and episodes) owned by `userID`; its cover stays with the
    /// original, whose file is the sender's.
    private static func copy(_ bookID: Int64, for userID: Int64, now: Date, _ db: Database) throws -> Int64 {
        // A row waiting for its owner's choice of title is matched again as the recipient's own (its candidates are
        // the sender's).
        let skipped: Set<String> = [
            "id", "owner_user_id", "cover_path", "created_at", "updated_at", "title_match", "title_match_checked_at",
        ]
        let columns = try db.columns(in: "book").map(\.name).filter { !skipped.contains($0) }
        let list = columns.joined(separator: ", ")
        try db.execute(
            sql: """
                INSERT INTO book (\(list), owner_user_id, created_at, updated_at)
                SELECT \(list), ?, ?, ? FROM book WHERE id = ?
                """, arguments: [userID, now, now, bookID])
        let copyID = db.lastInsertedRowID
        try db.execute(
            sql: """
                INSERT INTO book_author (book_id, position, name) SELECT ?, position, name FROM book_author
                WHERE book_id = ?;
                INSERT INTO episode (book_id, season, number, title, air_date, runtime_minutes)
                SELECT ?, season, number, title, air_date, runtime_minutes FROM episode WHERE book_id = ?;
                """, arguments: [copyID, bookID, copyID, bookID])
        return copyID
    }
}
