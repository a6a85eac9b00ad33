import Foundation
import GRDB
import Hummingbird

/// A housemate's page (issue 36): what a member who shares is reading now, has read this year and wants to read,
/// their shared lists and their part of this year's challenge. Read through `HouseholdSharing.sharingMembers`, like
/// everything one person sees of another: a member who does not share (or the viewer themself) has no page, 404.
struct HousemateController: Sendable {
    let sharing: HouseholdSharing
    let library: LibraryStore
    let renderer: PageRenderer
    let clock: AppClock

    static let shown = 30

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.houseMember.routerPath, use: show)
        router.post(Route.houseBookAdd.routerPath, use: addToWantToRead)
    }

    /// POST /house/books/:id/add (`return_to`): a book someone in the house has, on the viewer's Want to read in one
    /// tap, from the catalog row itself (no provider asked): a provider's row is shared, a typed or imported one is
    /// copied into a row of the viewer's own. Only a book the viewer may open (`houseBook`: held by a member who
    /// shares, or recommended to them); any other id is a 404, as unknown. A book they have already just goes back.
    @Sendable func addToWantToRead(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let returnTo = safeRelativePath(try await request.formFields().trimmed("return_to"))
        guard let id = BoundedNumber.id(context.parameters.get("id")),
            let found = try await sharing.houseBook(id, for: context.userID)
        else { throw AppError.notFound(localized("There is no such book in the house.")) }
        if let mine = found.viewerBookID { return .seeOther(returnTo ?? Paths.book(mine)) }
        let book = found.book
        var new = NewBook(title: book.title)
        new.subtitle = book.subtitle
        new.authors = book.authors
        new.isbn = book.isbn13.flatMap(ISBN.init) ?? book.isbn10.flatMap(ISBN.init)
        new.googleVolumeId = book.googleVolumeId
        new.pageCount = book.pageCount
        new.publishedDate = book.publishedDate
        new.publisher = book.publisher
        new.description = book.description
        new.categories = book.categories
        new.language = book.language
        // Someone's typed or imported row stays theirs: the viewer gets a copy of their own.
        new.source = book.ownerUserId == nil ? book.source : .manual
        do {
            let bookID = try await library.add(
                new, to: .wantToRead, for: context.userID, now: clock.now(), today: clock.today())
            return .seeOther(ActionNotice.added(bookID, to: .wantToRead, returnTo: returnTo))
        } catch is AlreadyInLibrary {
            return .seeOther(returnTo ?? Paths.shelf(.wantToRead))
        }
    }

    /// GET /house/members/:memberID
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let year = Int(clock.today().prefix(4)) ?? 2000
        guard let id = BoundedNumber.id(context.parameters.get("memberID")),
            let housemate = try await sharing.housemate(id, for: context.userID, year: year, limit: Self.shown)
        else {
            throw AppError.notFound(localized("There is no such member, or they do not share their reading."))
        }
        return try renderer.render(
            HousematePage(housemate, year: year, today: clock.today(), context: context), template: "household/member")
    }
}

extension HouseholdSharing {
    /// A book opened from the house (issue 36), with the viewer's own copy and who recommended it to them.
    struct HouseBook: Sendable {
        let book: Book
        /// The viewer's own row for it (the same, or one with the same ISBN-13).
        let viewerBookID: Int64?
        let recommendations: [(from: String, note: String?)]
    }

    /// `bookID` when the viewer may open it from the house: a member who shares has it, someone recommended it to
    /// the viewer, or it is the viewer's own; else nil (404). What such a page shows is what the housemate page and
    /// the recommendation show already.
    func houseBook(_ bookID: Int64, for viewer: Int64) async throws -> HouseBook? {
        try await db.read { db in
            guard
                let book = try Book.fetchOne(
                    db,
                    sql: """
                        WITH sharing AS (\(Self.sharingMembers))
                        SELECT * FROM book WHERE id = :book AND (
                            EXISTS (SELECT 1 FROM user_book WHERE user_book.book_id = book.id
                                AND user_book.user_id IN (SELECT id FROM sharing))
                            OR EXISTS (SELECT 1 FROM recommendation WHERE recommendation.book_id = book.id
                                AND recommendation.to_user = :viewer)
                            OR EXISTS (SELECT 1 FROM user_book WHERE user_book.book_id = book.id
                                AND user_book.user_id = :viewer))
                        """, arguments: ["book": bookID, "viewer": viewer])
            else { return nil }
            // The same row, one with the same ISBN-13, or without ISBNs the same title and authors (a copy of a
            // typed book, as adding it from here makes).
            let mine = try Int64.fetchOne(
                db,
                sql: """
                    SELECT mine.book_id FROM user_book AS mine JOIN book AS same ON same.id = mine.book_id
                    WHERE mine.user_id = :viewer AND (same.id = :book OR same.isbn13 = :isbn
                        OR (:isbn IS NULL AND same.isbn13 IS NULL AND same.title = :title AND same.authors = :authors))
                    LIMIT 1
                    """,
                arguments: [
                    "viewer": viewer, "book": bookID, "isbn": book.isbn13, "title": book.title,
                    "authors": CatalogWriter.jsonArray(book.authors),
                ])
            let recommendations = try Row.fetchAll(
                db,
                sql: """
                    SELECT user.display_name, recommendation.note FROM recommendation
                    JOIN user ON user.id = recommendation.from_user
                    WHERE recommendation.book_id = ? AND recommendation.to_user = ?
                        AND recommendation.dismissed_at IS NULL
                    ORDER BY recommendation.created_at DESC LIMIT 10
                    """, arguments: [bookID, viewer]
            ).map { (from: $0[0] as String, note: $0[1] as String?) }
            return HouseBook(book: book, viewerBookID: mine, recommendations: recommendations)
        }
    }

    /// One book on a housemate's shelf, as the viewer may see it.
    struct HousemateBook: Sendable {
        let bookID: Int64
        let title: String
        let authors: String
        let coverPath: String?
        let day: String?
        let rating: Double?
        /// The viewer's own book page for it, when they have it too.
        let viewerBookID: Int64?
    }

    struct Housemate: Sendable {
        let id: Int64
        let name: String
        var reading: [HousemateBook] = []
        var read: [HousemateBook] = []
        var readCount = 0
        var wanted: [HousemateBook] = []
        var wantedCount = 0
        var lists: [(id: Int64, name: String, books: Int)] = []
        var challenge: HouseChallengeStore.Progress?
    }

    /// `memberID`'s page as `viewer` may see it, or nil when they do not share (or are the viewer, or unknown).
    func housemate(_ memberID: Int64, for viewer: Int64, year: Int, limit: Int) async throws -> Housemate? {
        try await db.read { db in
            guard
                let name = try String.fetchOne(
                    db, sql: "SELECT display_name FROM (\(Self.sharingMembers)) WHERE id = :member",
                    arguments: ["viewer": viewer, "member": memberID])
            else { return nil }
            var housemate = Housemate(id: memberID, name: name)
            func books(
                _ condition: String, order: String, day: String?,
                _ extra: [String: any DatabaseValueConvertible] = [:]
            )
                throws -> [HousemateBook]
            {
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT book.id, book.title, book.author_names,
                            book.cover_path, \(day.map { "user_book." + $0 } ?? "NULL") AS day, user_book.rating,
                            (\(Self.viewersCopy)) AS mine
                        FROM user_book JOIN book ON book.id = user_book.book_id
                        WHERE user_book.user_id = :member AND \(condition)
                        ORDER BY \(order) LIMIT :limit
                        """,
                    arguments: StatementArguments(
                        ["viewer": viewer, "member": memberID, "limit": limit].merging(extra) { $1 })
                ).map { row in
                    HousemateBook(
                        bookID: row["id"], title: row["title"],
                        authors: row["author_names"] ?? "", coverPath: row["cover_path"], day: row["day"],
                        rating: row["rating"], viewerBookID: row["mine"])
                }
            }
            let (from, to) = (String(format: "%04d-01-01", year), String(format: "%04d-01-01", year + 1))
            housemate.reading = try books(
                "user_book.shelf = 'reading'", order: "user_book.started_at DESC, user_book.id DESC", day: "started_at")
            housemate.read = try books(
                "user_book.shelf = 'read' AND user_book.finished_at >= :from AND user_book.finished_at < :to",
                order: "user_book.finished_at DESC, user_book.id DESC", day: "finished_at", ["from": from, "to": to])
            housemate.readCount =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM user_book WHERE user_id = ? AND shelf = 'read'
                            AND finished_at >= ? AND finished_at < ?
                        """, arguments: [memberID, from, to]) ?? 0
            housemate.wanted = try books(
                "user_book.shelf = 'want_to_read'", order: "user_book.added_at DESC, user_book.id DESC",
                day: nil)
            housemate.wantedCount =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM user_book WHERE user_id = ? AND shelf = 'want_to_read'",
                    arguments: [memberID]) ?? 0
            housemate.lists = try Row.fetchAll(
                db,
                sql: """
                    SELECT list.id, list.name, (SELECT COUNT(*) FROM list_item WHERE list_item.list_id = list.id)
                    FROM list WHERE list.user_id = ? AND list.shared_at IS NOT NULL
                    ORDER BY list.name COLLATE NOCASE LIMIT 50
                    """, arguments: [memberID]
            ).map { (id: $0[0], name: $0[1], books: $0[2]) }
            housemate.challenge = try HouseChallengeStore.progress(db, of: year)
            return housemate
        }
    }
}

/// `household/member`.
struct HousematePage: Sendable {
    struct Book: Sendable {
        let title: String
        let detail: String
        let coverURL: String
        let ownPath: String?
        /// The book opened in Shelfed, for one the viewer has not got.
        let openPath: String
        /// "+ Want to read", for a book the viewer may add.
        let addPath: String?
        let csrfToken: String
        let returnTo: String
    }

    struct ListLine: Sendable {
        let path: String
        let name: String
        let detail: String
    }

    let chrome: PageChrome
    let name: String
    let year: Int
    let reading: [Book]
    let read: [Book]
    let readCount: String?
    let wanted: [Book]
    let wantCount: String?
    let lists: [ListLine]
    let challengeLine: String?

    init(_ housemate: HouseholdSharing.Housemate, year: Int, today: String, context: SignedInContext) {
        chrome = PageChrome(title: housemate.name, context: context, tab: .feed)
        name = housemate.name
        self.year = year
        let returnTo = Paths.houseMember(housemate.id)
        func book(_ book: HouseholdSharing.HousemateBook, _ day: String?) -> Book {
            var parts = book.authors.isEmpty ? [] : [book.authors]
            if let rating = book.rating { parts.append(BookPage.starsLabel(rating)) }
            if let day { parts.append(day) }
            return Book(
                title: book.title, detail: parts.joined(separator: " · "), coverURL: BookCover.url(for: book.coverPath),
                ownPath: book.viewerBookID.map(Paths.book), openPath: Paths.houseBook(book.bookID),
                addPath: Route.houseBookAdd.link(book.bookID), csrfToken: context.csrfToken,
                returnTo: returnTo)
        }
        reading = housemate.reading.map { entry in
            book(entry, entry.day.map { localized("since {{day}}", ["day": HumanDay.text($0, today: today)]) })
        }
        read = housemate.read.map { entry in
            book(entry, entry.day.map { localized("finished {{day}}", ["day": HumanDay.text($0, today: today)]) })
        }
        readCount = housemate.readCount > 0 ? housemate.readCount.grouped : nil
        wanted = housemate.wanted.map { book($0, nil) }
        wantCount = housemate.wantedCount > 0 ? housemate.wantedCount.grouped : nil
        lists = housemate.lists.map {
            ListLine(
                path: Paths.houseList($0.id), name: $0.name,
                detail: localized(one: "{{count}} book", other: "{{count}} books", count: $0.books))
        }
        challengeLine = housemate.challenge.flatMap { progress in
            progress.contributions.first { $0.userID == housemate.id }.map { part in
                progress.challenge.measure == .books
                    ? localized(
                        one: "{{name}}'s part of the house challenge: {{amount}} of {{count}} book.",
                        other: "{{name}}'s part of the house challenge: {{amount}} of {{count}} books.",
                        count: progress.challenge.goal, ["name": housemate.name, "amount": String(part.amount)])
                    : localized(
                        one: "{{name}}'s part of the house challenge: {{amount}} of {{count}} page.",
                        other: "{{name}}'s part of the house challenge: {{amount}} of {{count}} pages.",
                        count: progress.challenge.goal, ["name": housemate.name, "amount": part.amount.grouped])
            }
        }
    }
}
