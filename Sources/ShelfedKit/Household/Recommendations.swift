import Foundation
import GRDB
import Hummingbird

/// "Recommend to someone" (issue 25): from a book page, a book suggested to anyone in the house, with a note; it waits
/// on their home page until they dismiss it. The recommender chooses to tell that one person, so neither need share
/// (issue 35: only members who shared could receive one).
struct RecommendationStore: Sendable {
    let db: AppDatabase

    static let maxNoteLength = 500

    struct Received: Sendable, Equatable {
        let id: Int64
        let from: String
        let title: String
        let authors: String
        let note: String?
        /// The recipient's own book page, when they have the book (same row or ISBN-13).
        let recipientBookID: Int64?
        /// The book recommended, opened in Shelfed (`HouseBookController`) while the recipient has not got it.
        var bookID: Int64? = nil
    }

    enum Refusal: Error, Equatable {
        case notAMember
    }

    /// Recommends catalog book `bookID` (the sender's) to member `to`, anyone in the house but the sender.
    func recommend(bookID: Int64, from sender: Int64, to recipient: Int64, note: String?, now: Date) async throws {
        try await db.write { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM user WHERE id = ? AND id != ?", arguments: [recipient, sender]) == true
            else { throw Refusal.notAMember }
            try db.execute(
                sql:
                    "INSERT INTO recommendation (from_user, to_user, book_id, note, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [sender, recipient, bookID, note, now])
        }
    }

    /// Everyone in the house but `userID`, by name: who a book may be recommended to.
    func recipients(for userID: Int64) async throws -> [(id: Int64, name: String)] {
        try await db.read { db in try Self.recipients(for: userID, db) }
    }

    /// `recipients(for:)` inside the caller's read.
    static func recipients(for userID: Int64, _ db: Database) throws -> [(id: Int64, name: String)] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT id, display_name FROM user WHERE id != ? ORDER BY display_name COLLATE NOCASE, id"),
            arguments: [userID]
        ).map { (id: $0["id"], name: $0["display_name"]) }
    }

    /// What was recommended to `recipient` and not dismissed, newest first.
    func received(by recipient: Int64) async throws -> [Received] {
        try await db.read { db in try Self.received(db, by: recipient) }
    }

    static func received(_ db: Database, by recipient: Int64) throws -> [Received] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT recommendation.id, user.display_name, book.title, book.author_names, recommendation.note,
                        (SELECT mine.book_id FROM user_book AS mine JOIN book AS same ON same.id = mine.book_id
                         WHERE mine.user_id = recommendation.to_user
                            AND (same.id = book.id OR (book.isbn13 IS NOT NULL AND same.isbn13 = book.isbn13))
                         LIMIT 1) AS mine, book.id
                    FROM recommendation JOIN user ON user.id = recommendation.from_user
                    JOIN book ON book.id = recommendation.book_id
                    WHERE recommendation.to_user = ? AND recommendation.dismissed_at IS NULL
                    ORDER BY recommendation.created_at DESC, recommendation.id DESC LIMIT 20
                    """), arguments: [recipient]
        ).map { row in
            Received(
                id: row[0], from: row[1], title: row[2], authors: row[3] ?? "", note: row[4],
                recipientBookID: row[5], bookID: row[6])
        }
    }

    /// Dismisses a recommendation made to `recipient`; false for anyone else's.
    func dismiss(_ id: Int64, recipient: Int64, now: Date) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: "UPDATE recommendation SET dismissed_at = ? WHERE id = ? AND to_user = ? AND dismissed_at IS NULL",
                arguments: [now, id, recipient])
            return db.changesCount > 0
        }
    }
}

struct RecommendationController: Sendable {
    let recommendations: RecommendationStore
    let pages: BookPageBuilder
    var library: LibraryStore { pages.library }
    var clock: AppClock { pages.clock }

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.bookRecommend.routerPath, use: recommend)
        router.post(Route.recommendationDismiss.routerPath, use: dismiss)
    }

    /// POST /books/:id/recommend (`member`, `note`)
    @Sendable func recommend(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        var request = request
        let form = try await request.formFields()
        let note = form.trimmed("note")
        if let note,
            note.count > RecommendationStore.maxNoteLength
                || NewBookForm.hasControlCharacters(note, allowingLineBreaks: true)
        {
            var page = try await pages.page(entry, context: context)
            page.recommend?.noteValue = note
            page.recommend?.noteError = localized(
                "Keep the note to {{count}} characters, without invisible ones.",
                ["count": String(RecommendationStore.maxNoteLength)])
            return try pages.refused(page)
        }
        guard let member = form["member"].flatMap({ BoundedNumber.id($0) }) else {
            throw AppError.invalid(localized("Choose who to recommend it to."), field: "member")
        }
        do {
            try await recommendations.recommend(
                bookID: entry.bookID, from: context.userID, to: member, note: note, now: clock.now())
        } catch RecommendationStore.Refusal.notAMember {
            throw AppError.notFound(localized("There is no such member of the household."))
        }
        return .seeOther(
            ActionNotice.link(Paths.book(entry.bookID), adding: [("saved", "recommended")], anchor: "house-heading"))
    }

    /// POST /recommendations/:recommendationID/dismiss (optional `return_to`: the For you page)
    @Sendable func dismiss(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let back = safeRelativePath(try await request.formFields().trimmed("return_to"))
        guard let id = BoundedNumber.id(context.parameters.get("recommendationID")),
            try await recommendations.dismiss(id, recipient: context.userID, now: clock.now())
        else {
            throw AppError.notFound(localized("There is no such recommendation. It may have been dismissed already."))
        }
        return .seeOther(back ?? Paths.home + "#recommended-heading")
    }
}

extension BookPage {
    /// "Recommend it": anyone else in the house, and a note.
    struct RecommendSection: Sendable {
        struct Member: Sendable {
            let id: Int64
            let name: String
        }

        let formPath: String
        let members: [Member]
        var noteValue = ""
        var noteError: String?

        init?(bookID: Int64, members: [(id: Int64, name: String)]) {
            guard !members.isEmpty else { return nil }
            formPath = Paths.bookRecommend(bookID)
            self.members = members.map { Member(id: $0.id, name: $0.name) }
        }
    }
}
