import Foundation
import GRDB

/// What members choose to share with the household (issue 25, DESIGN §15), and the only queries that show one
/// person's reading to another. Nothing about a person is visible until they turn sharing on; turning it off hides
/// everything again at once, because every answer is read through `sharingMembers` at the time it is asked.
struct HouseholdSharing: Sendable {
    let db: AppDatabase

    /// The members whose reading `viewer` may see besides their own: those who share. Takes the viewer's id as
    /// `:viewer`.
    /// Private notes never reach anyone; a review, a photo or a list only when its owner marks it shared as well.
    static let sharingMembers = "SELECT id, display_name FROM user WHERE shares_reading = 1 AND id != :viewer"

    /// The viewer's own catalog row for `book` (the same row, or one with the same ISBN-13), so a house item links to
    /// the viewer's page for it. Takes `:viewer` and a `book` row in scope.
    static let viewersCopy = """
        SELECT mine.book_id FROM user_book AS mine WHERE mine.user_id = :viewer
        AND mine.book_id IN (SELECT book.id UNION ALL SELECT same.id FROM book AS same WHERE same.isbn13 = book.isbn13)
        LIMIT 1
        """

    static let feedPageSize = 20

    /// Whether a shelf entry's `column` day is history an import brought (the entry was made by an import on or
    /// after that day): summarised by the import's own line. An entry an import only updated keeps its own history
    /// in the feed. Takes a `user_book` row in scope.
    static func importedBefore(_ column: String) -> String {
        """
        SELECT 1 FROM import_row JOIN import_job ON import_job.id = import_row.job_id
        WHERE import_row.user_book_id = user_book.id AND import_row.outcome = 'created'
            AND substr(import_job.created_at, 1, 10) >= user_book.\(column)
        """
    }
    static let maxFeedPage = 50

    func isSharing(_ userID: Int64) async throws -> Bool {
        try await db.read { db in try Self.isSharing(db, userID) }
    }

    static func isSharing(_ db: Database, _ userID: Int64) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT shares_reading FROM user WHERE id = ?"), arguments: [userID]) ?? false
    }

    func setSharing(_ shares: Bool, for userID: Int64) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE user SET shares_reading = ? WHERE id = ?", arguments: [shares, userID])
        }
    }

    /// Another member's copy of a book, as the book page's "In the house" shows it.
    struct HouseCopy: Sendable, Equatable {
        let member: String
        let shelf: Shelf
        let rating: Double?
        let owned: Bool
        /// Their shelf entry, for "Ask to borrow".
        let entryID: Int64
        /// Whether their copy is out on loan now.
        let onLoan: Bool
        /// Their review, only when they marked it shared.
        var review: String? = nil
        /// The copy is out on loan to the viewer: they hold it.
        var lentToViewer = false
        /// When the viewer asked to borrow it, while that request waits for an answer.
        var askedAt: Date? = nil
        /// Their housemate page.
        var memberID: Int64? = nil
    }

    /// Who else in the house (sharing) has this book — the same catalog row, or the same ISBN-13 in a row of their
    /// own — on which shelf, with their rating and whether they own a copy.
    func inTheHouse(bookID: Int64, isbn13: String?, for viewer: Int64) async throws -> [HouseCopy] {
        try await db.read { db in try Self.inTheHouse(bookID: bookID, isbn13: isbn13, for: viewer, db) }
    }

    /// `inTheHouse(bookID:isbn13:for:)` inside the caller's read.
    static func inTheHouse(bookID: Int64, isbn13: String?, for viewer: Int64, _ db: Database) throws -> [HouseCopy] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    WITH sharing AS (\(Self.sharingMembers))
                    SELECT sharing.display_name, user_book.shelf, user_book.rating, user_book.owned,
                        user_book.id, EXISTS (SELECT 1 FROM loan WHERE loan.user_book_id = user_book.id
                            AND loan.returned_on IS NULL),
                        CASE WHEN user_book.review_shared THEN user_book.review END,
                        EXISTS (SELECT 1 FROM loan WHERE loan.user_book_id = user_book.id
                            AND loan.returned_on IS NULL AND loan.borrower_user_id = :viewer),
                        (SELECT borrow_request.created_at FROM borrow_request
                         WHERE borrow_request.user_book_id = user_book.id AND borrow_request.requester_id = :viewer
                            AND borrow_request.answer IS NULL),
                        sharing.id
                    FROM user_book JOIN sharing ON sharing.id = user_book.user_id
                    WHERE user_book.book_id IN (SELECT :book UNION SELECT id FROM book WHERE isbn13 = :isbn)
                    GROUP BY sharing.id ORDER BY sharing.display_name COLLATE NOCASE LIMIT 50
                    """), arguments: ["viewer": viewer, "book": bookID, "isbn": isbn13]
        ).map { row in
            HouseCopy(
                member: row[0], shelf: Shelf(rawValue: row[1]) ?? .wantToRead, rating: row[2],
                owned: row[3] ?? false, entryID: row[4], onLoan: row[5], review: row[6], lentToViewer: row[7],
                askedAt: row[8], memberID: row[9])
        }
    }

    /// One thing a sharing member did.
    struct FeedItem: Sendable, Equatable {
        enum Kind: String, Sendable {
            case started, finished, stopped, progress
            /// A photo or a list its owner chose to share.
            case photo, list
            /// A whole import, as one line; `pageOrPercent` is how many books it added, `title` the file's kind.
            case imported
            /// A day's episodes of a show (`episodes` says which).
            case episodes
        }

        let kind: Kind
        let day: String
        let member: String
        /// Their page (`/house/members/:id`).
        var memberID: Int64? = nil
        let title: String
        let pageOrPercent: Double?
        let byPercent: Bool
        var rating: Double?
        /// The viewer's own book page for it, when they have the book too.
        let viewerBookID: Int64?
        /// The shared photo's or list's id.
        var sharedID: Int64? = nil
        /// The book the line is about, for a book line: opened in Shelfed when the viewer has no copy.
        var bookID: Int64? = nil
        /// A book, a film or a show: the verbs its line is told with ("watched", not "finished").
        var titleKind: TitleKind = .book
        /// For progress: pages (or percent) read that day, from the place the day before; nil for a first update.
        var readThatDay: Double? = nil
        /// For a show's day of episodes: how many, the last, and whether its season was finished that day.
        var episodes: EpisodeDay? = nil
        /// Others who watched the same that day ("Robin and Sam watched S2E3"), folded into this line.
        var companions: [Companion] = []
    }

    /// The house feed for `viewer`, newest first: started, finished (with the rating), put down, and progress, from
    /// members who share — never the viewer's own, never anyone who does not share. One line a person a book a day
    /// (issue 36): a day's updates are one progress line, and none beside that day's start, finish or stop; a book
    /// started and finished on one day is only finished. Within a day, the latest first. What an import brought is
    /// one line for the import, not its hundreds of dated reads.
    func feed(for viewer: Int64, page: Int, pageSize: Int = HouseholdSharing.feedPageSize) async throws
        -> (items: [FeedItem], hasMore: Bool)
    {
        try await db.read { db in try Self.feed(db, for: viewer, page: page, pageSize: pageSize) }
    }

    static func feed(_ db: Database, for viewer: Int64, page: Int, pageSize: Int = HouseholdSharing.feedPageSize)
        throws -> (items: [FeedItem], hasMore: Bool)
    {
        // Nobody else shares (the usual house at first): nothing to read. Asked first because the feed's plan
        // walks the house's events newest first, which finds nothing only after walking them all.
        guard
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (\(Self.sharingMembers))"), arguments: ["viewer": viewer])
                == true
        else { return ([], false) }
        let items = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    WITH sharing AS (\(Self.sharingMembers)),
                    happened AS (
                        SELECT * FROM (
                            SELECT 'started' AS kind, started_at AS day, user_id, book_id, NULL AS page,
                                NULL AS percent, NULL AS rating, NULL AS shared_id, updated_at AS at,
                                NULL AS page_before, NULL AS percent_before, NULL AS label
                            FROM user_book WHERE started_at IS NOT NULL AND +user_id IN (SELECT id FROM sharing)
                                AND started_at IS NOT finished_at AND started_at IS NOT stopped_at
                                AND NOT EXISTS (\(Self.importedBefore("started_at")))
                            ORDER BY started_at DESC LIMIT :reach)
                        UNION ALL
                        SELECT * FROM (
                            SELECT 'finished', finished_at, user_id, book_id, NULL, NULL, rating, NULL, updated_at,
                                NULL, NULL, NULL
                            FROM user_book WHERE finished_at IS NOT NULL AND +user_id IN (SELECT id FROM sharing)
                                AND NOT EXISTS (\(Self.importedBefore("finished_at")))
                            ORDER BY finished_at DESC LIMIT :reach)
                        UNION ALL
                        SELECT * FROM (
                            SELECT 'stopped', stopped_at, user_id, book_id, NULL, NULL, NULL, NULL, updated_at, NULL,
                                NULL, NULL
                            FROM user_book WHERE stopped_at IS NOT NULL AND +user_id IN (SELECT id FROM sharing)
                                AND NOT EXISTS (\(Self.importedBefore("stopped_at")))
                            ORDER BY stopped_at DESC LIMIT :reach)
                        UNION ALL
                        SELECT * FROM (
                            -- One line a book a day: its last update that day, with where it stood the day before;
                            -- none on a day the book was started, finished or put down (that line says it).
                            SELECT 'progress', journal_entry.read_on, user_book.user_id, user_book.book_id,
                                journal_entry.page, journal_entry.percent, NULL, NULL, journal_entry.created_at,
                                eve.page, eve.percent, NULL
                            FROM journal_entry JOIN user_book ON user_book.id = journal_entry.user_book_id
                            LEFT JOIN journal_entry AS eve ON eve.id = (
                                SELECT before.id FROM journal_entry AS before
                                WHERE before.user_book_id = journal_entry.user_book_id
                                    AND before.read_on < journal_entry.read_on
                                ORDER BY before.read_on DESC, before.id DESC LIMIT 1)
                            WHERE +user_book.user_id IN (SELECT id FROM sharing)
                                AND NOT EXISTS (
                                    SELECT 1 FROM journal_entry AS later
                                    WHERE later.user_book_id = journal_entry.user_book_id
                                        AND later.read_on = journal_entry.read_on AND later.id > journal_entry.id)
                                AND journal_entry.read_on IS NOT user_book.started_at
                                AND journal_entry.read_on IS NOT user_book.finished_at
                                AND journal_entry.read_on IS NOT user_book.stopped_at
                            ORDER BY journal_entry.read_on DESC LIMIT :reach)
                        UNION ALL
                        \(Self.episodeLines)
                        UNION ALL
                        SELECT * FROM (
                            SELECT 'photo', shared_at, user_id, book_id, page_number, NULL, NULL, id, shared_at, NULL,
                                NULL, NULL
                            FROM photo WHERE shared_at IS NOT NULL AND +user_id IN (SELECT id FROM sharing)
                            ORDER BY shared_at DESC LIMIT :reach)
                        UNION ALL
                        SELECT * FROM (
                            SELECT 'list', shared_at, user_id, NULL, NULL, NULL, NULL, id, shared_at, NULL, NULL, NULL
                            FROM list WHERE shared_at IS NOT NULL AND +user_id IN (SELECT id FROM sharing)
                            ORDER BY shared_at DESC LIMIT :reach)
                        UNION ALL
                        SELECT * FROM (
                            -- A whole import is one line: "Sam brought 232 books from Goodreads".
                            SELECT 'imported', substr(COALESCE(finished_at, created_at), 1, 10), user_id, NULL,
                                created, NULL, NULL, NULL, COALESCE(finished_at, created_at), NULL, NULL, format
                            FROM import_job WHERE created > 0 AND format != 'barcodes'
                                AND status IN ('completed', 'canceled', 'failed')
                                AND +user_id IN (SELECT id FROM sharing)
                            ORDER BY created_at DESC LIMIT :reach)
                    )
                    SELECT happened.kind, happened.day, sharing.display_name, sharing.id AS member_id,
                        COALESCE(happened.label, book.title, list.name) AS title,
                        happened.page, happened.percent, happened.rating,
                        (\(Self.viewersCopy)) AS mine, happened.shared_id, happened.page_before,
                        happened.percent_before, happened.book_id, book.kind AS title_kind
                    FROM happened JOIN sharing ON sharing.id = happened.user_id
                    LEFT JOIN book ON book.id = happened.book_id
                    LEFT JOIN list ON happened.kind = 'list' AND list.id = happened.shared_id
                    ORDER BY happened.day DESC, happened.at DESC, sharing.display_name, title
                    LIMIT :limit OFFSET :offset
                    """),
            // Each kind reads only as far back as the page can reach, newest first, from its own index (the `+`
            // keeps SQLite from starting at the members' index and sorting all their books instead: 43 → 0.1 ms).
            arguments: [
                "viewer": viewer, "limit": pageSize + 1, "offset": max(0, page - 1) * pageSize,
                "reach": page * pageSize + 1,
            ]
        ).map { row -> FeedItem in
            let percent: Double? = row["percent"]
            let pageNumber: Int? = row["page"]
            let kind = FeedItem.Kind(rawValue: row["kind"]) ?? .started
            // What was read that day: from the place the day before, when the same measure was used then.
            let before: Double? =
                percent != nil ? row["percent_before"] : (row["page_before"] as Int?).map(Double.init)
            let now = percent ?? pageNumber.map(Double.init)
            var item = FeedItem(
                kind: kind, day: String((row["day"] as String).prefix(10)), member: row["display_name"],
                memberID: row["member_id"],
                title: kind == .imported
                    ? ImportFormat(rawValue: row["title"] ?? "")?.displayName ?? "a file" : row["title"] ?? "",
                pageOrPercent: now, byPercent: percent != nil,
                rating: row["rating"], viewerBookID: kind == .imported ? nil : row["mine"],
                sharedID: row["shared_id"], bookID: row["book_id"],
                titleKind: (row["title_kind"] as String?).flatMap(TitleKind.init(rawValue:)) ?? .book)
            if kind == .progress, let now, let before, now > before { item.readThatDay = now - before }
            if kind == .episodes { item.episodes = try EpisodeDay(row, db) }
            return item
        }
        return (Array(items.prefix(pageSize)), items.count > pageSize)
    }
}
