import Foundation
import GRDB

/// Owned copies and lending (issue 25): where a copy is kept, who has it on loan since when and until when, and the
/// house library — every owned copy of the members who share, and the viewer's own.
struct LoanStore: Sendable {
    let db: AppDatabase

    static let maxNameLength = 100
    static let maxLocationLength = 100
    static let housePageSize = 60

    /// A copy on loan.
    struct Loan: Sendable, Equatable {
        let id: Int64
        let borrowerName: String
        let borrowerID: Int64?
        let lentOn: String
        let dueOn: String?
    }

    /// One of the person's books out on loan past its day.
    struct Overdue: Sendable, Equatable {
        let bookID: Int64
        let title: String
        let borrowerName: String
        let lentOn: String
        let dueOn: String
    }

    /// A book lent to the person by another member.
    struct Borrowed: Sendable, Equatable {
        let title: String
        let lender: String
        let lentOn: String
        let dueOn: String?
    }

    enum Refusal: Error, Equatable {
        case alreadyOnLoan
        case notYours
        /// A borrow request answered after the owner said they no longer have the copy.
        case notOwned
    }

    /// Who may borrow: the members who share (a member who does not share cannot be chosen, as they appear nowhere).
    func borrowers(for userID: Int64) async throws -> [(id: Int64, name: String)] {
        try await db.read { db in try Self.borrowers(for: userID, db) }
    }

    /// `borrowers(for:)` inside the caller's read.
    static func borrowers(for userID: Int64, _ db: Database) throws -> [(id: Int64, name: String)] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT id, display_name FROM user WHERE shares_reading = 1 AND id != ? ORDER BY display_name"),
            arguments: [userID]
        ).map { ($0["id"], $0["display_name"]) }
    }

    /// The open loan of the person's copy of `bookID`.
    func openLoan(bookID: Int64, userID: Int64) async throws -> Loan? {
        try await db.read { db in try Self.openLoan(bookID: bookID, userID: userID, db) }
    }

    /// `openLoan(bookID:userID:)` inside the caller's read.
    static func openLoan(bookID: Int64, userID: Int64, _ db: Database) throws -> Loan? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT loan.* FROM loan JOIN user_book ON user_book.id = loan.user_book_id
                    WHERE user_book.book_id = ? AND user_book.user_id = ? AND loan.returned_on IS NULL
                    """), arguments: [bookID, userID]
        ).map(Self.loan)
    }

    /// Lends the person's copy (it is theirs, so it is marked owned); to a member who shares, or to a name. Returns
    /// the new loan's id.
    @discardableResult
    func lend(
        bookID: Int64, userID: Int64, toMember memberID: Int64?, name: String?, lentOn: String, dueOn: String?
    ) async throws -> Int64 {
        try await db.write { db in
            guard
                let entryID = try Int64.fetchOne(
                    db, sql: "SELECT id FROM user_book WHERE book_id = ? AND user_id = ?", arguments: [bookID, userID])
            else { throw Refusal.notYours }
            try db.execute(sql: "UPDATE user_book SET owned = 1 WHERE id = ?", arguments: [entryID])
            try Self.open(entryID: entryID, lender: userID, to: memberID, name: name, lentOn: lentOn, dueOn: dueOn, db)
            return db.lastInsertedRowID
        }
    }

    /// Opens a loan of copy `entryID` inside a write, with the lend form's rules whichever way it is lent (the form,
    /// the API or a borrow request answered): not while the copy is out, and to a member only while they share.
    static func open(
        entryID: Int64, lender: Int64, to memberID: Int64?, name: String?, lentOn: String, dueOn: String?,
        _ db: Database
    ) throws {
        if try Bool.fetchOne(
            db, sql: "SELECT 1 FROM loan WHERE user_book_id = ? AND returned_on IS NULL", arguments: [entryID])
            == true
        {
            throw Refusal.alreadyOnLoan
        }
        var borrowerName = name ?? ""
        if let memberID {
            guard
                let memberName = try String.fetchOne(
                    db, sql: "SELECT display_name FROM user WHERE id = ? AND shares_reading = 1 AND id != ?",
                    arguments: [memberID, lender])
            else { throw Refusal.notYours }
            borrowerName = memberName
        }
        try db.execute(
            sql: """
                INSERT INTO loan (user_book_id, borrower_user_id, borrower_name, lent_on, due_on)
                VALUES (?, ?, ?, ?, ?)
                """, arguments: [entryID, memberID, borrowerName, lentOn, dueOn])
    }

    /// Marks the open loan of the person's copy returned; false when there is none.
    func returned(bookID: Int64, userID: Int64, on day: String) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE loan SET returned_on = ? WHERE returned_on IS NULL AND user_book_id =
                        (SELECT id FROM user_book WHERE book_id = ? AND user_id = ?)
                    """, arguments: [day, bookID, userID])
            return db.changesCount > 0
        }
    }

    /// The person's books on loan past their due day, longest overdue first, read from the house's open loans.
    func overdue(lender userID: Int64, today: String) async throws -> [Overdue] {
        try await db.read { db in try Self.overdue(db, lender: userID, today: today) }
    }

    static func overdue(_ db: Database, lender userID: Int64, today: String) throws -> [Overdue] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT book.id, book.title, loan.borrower_name, loan.lent_on, loan.due_on FROM loan
                    CROSS JOIN user_book ON user_book.id = loan.user_book_id JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND loan.returned_on IS NULL AND loan.due_on < ?
                    ORDER BY loan.due_on LIMIT 50
                    """), arguments: [userID, today]
        ).map { Overdue(bookID: $0[0], title: $0[1], borrowerName: $0[2], lentOn: $0[3], dueOn: $0[4]) }
    }

    /// One of the person's copies out on loan now.
    struct Lent: Sendable, Equatable {
        let id: Int64
        let bookID: Int64
        let title: String
        let borrowerName: String
        let borrowerID: Int64?
        let lentOn: String
        let dueOn: String?
    }

    /// The person's copies on loan now, the longest out first (the first 500); with `loanID`, that one loan only.
    func lent(by userID: Int64, loanID: Int64? = nil) async throws -> [Lent] {
        try await db.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT loan.id, book.id AS book_id, book.title, loan.borrower_name, loan.borrower_user_id,
                            loan.lent_on, loan.due_on
                        FROM loan CROSS JOIN user_book ON user_book.id = loan.user_book_id
                        JOIN book ON book.id = user_book.book_id
                        WHERE user_book.user_id = ? AND loan.returned_on IS NULL AND (? IS NULL OR loan.id = ?)
                        ORDER BY loan.lent_on, loan.id LIMIT 500
                        """), arguments: [userID, loanID, loanID]
            ).map { row in
                Lent(
                    id: row["id"], bookID: row["book_id"], title: row["title"], borrowerName: row["borrower_name"],
                    borrowerID: row["borrower_user_id"], lentOn: row["lent_on"], dueOn: row["due_on"])
            }
        }
    }

    /// Marks loan `loanID` of the person's copy returned; false for an unknown, another's or a returned loan.
    func returned(loanID: Int64, lender userID: Int64, on day: String) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE loan SET returned_on = ? WHERE id = ? AND returned_on IS NULL
                    AND user_book_id IN (SELECT id FROM user_book WHERE user_id = ?)
                    """, arguments: [day, loanID, userID])
            return db.changesCount > 0
        }
    }

    /// Books other members lent the person and not yet returned.
    func borrowed(by userID: Int64) async throws -> [Borrowed] {
        try await db.read { db in try Self.borrowed(db, by: userID) }
    }

    static func borrowed(_ db: Database, by userID: Int64) throws -> [Borrowed] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT book.title, user.display_name, loan.lent_on, loan.due_on FROM loan
                    JOIN user_book ON user_book.id = loan.user_book_id JOIN book ON book.id = user_book.book_id
                    JOIN user ON user.id = user_book.user_id
                    WHERE loan.borrower_user_id = ? AND loan.returned_on IS NULL ORDER BY loan.lent_on LIMIT 50
                    """), arguments: [userID]
        ).map { Borrowed(title: $0[0], lender: $0[1], lentOn: $0[2], dueOn: $0[3]) }
    }

    // MARK: - The house library

    struct HouseCopy: Sendable, Equatable {
        let title: String
        let authors: String
        let coverPath: String?
        let owner: String
        let ownerID: Int64
        let location: String?
        let onLoanTo: String?
        let lentOn: String?
        /// The viewer's own book page, for their own copies.
        /// The catalog row, opened in Shelfed when it is someone else's copy.
        let bookID: Int64
        let viewerBookID: Int64?
    }

    struct HouseFilters: Sendable, Equatable {
        var ownerID: Int64?
        var genre: String?
        var availableOnly = false
    }

    /// Every owned copy of the viewer and of the members who share, by title, 60 a page; with how many match.
    func houseLibrary(for viewer: Int64, filters: HouseFilters, page: Int) async throws
        -> (copies: [HouseCopy], total: Int)
    {
        try await db.read { db in
            var conditions = ["user_book.owned = 1", "(user.id = :viewer OR user.shares_reading = 1)"]
            var arguments: [String: (any DatabaseValueConvertible)?] = [
                "viewer": viewer, "limit": Self.housePageSize, "offset": max(0, page - 1) * Self.housePageSize,
            ]
            if let owner = filters.ownerID {
                conditions.append("user.id = :owner")
                arguments["owner"] = owner
            }
            if let genre = filters.genre {
                conditions.append(
                    "book.id IN (SELECT book_id FROM book_category WHERE name = :genre COLLATE NOCASE)")
                arguments["genre"] = genre
            }
            if filters.availableOnly { conditions.append("loan.id IS NULL") }
            let matching = conditions.joined(separator: " AND ")
            // The catalog walked in title order (`book_by_title`), each book's owned copies found by their index, until
            // the page is full: sorting every copy in the house and counting them in the same query cost 24 ms of a
            // page at 4,800 copies (issue 36, part 9; `benchmarks/house_feed.py`). The count is a query of its own.
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: Self.houseLibrarySQL(where: matching)), arguments: StatementArguments(arguments)
            )
            arguments["limit"] = nil
            arguments["offset"] = nil
            let total =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT COUNT(*) FROM user_book JOIN user ON user.id = user_book.user_id
                            JOIN book ON book.id = user_book.book_id
                            LEFT JOIN loan ON loan.user_book_id = user_book.id AND loan.returned_on IS NULL
                            WHERE \(matching)
                            """), arguments: StatementArguments(arguments)) ?? 0
            let copies = rows.map { row in
                HouseCopy(
                    title: row["title"], authors: row["author_names"] ?? "", coverPath: row["cover_path"],
                    owner: row["display_name"], ownerID: row["owner_id"], location: row["location"],
                    onLoanTo: row["borrower_name"], lentOn: row["lent_on"],
                    bookID: row["book_id"], viewerBookID: (row["owner_id"] as Int64) == viewer ? row["book_id"] : nil)
            }
            return (copies, total)
        }
    }

    /// A page of the house library's copies matching `conditions`, by title (`:limit`, `:offset`).
    static func houseLibrarySQL(where conditions: String) -> String {
        """
        SELECT book.title, book.author_names, book.cover_path, user.display_name, user.id AS owner_id,
            user_book.location, loan.borrower_name, loan.lent_on, user_book.book_id
        FROM book CROSS JOIN user_book ON user_book.book_id = book.id AND user_book.owned = 1
        JOIN user ON user.id = user_book.user_id
        LEFT JOIN loan ON loan.user_book_id = user_book.id AND loan.returned_on IS NULL
        WHERE \(conditions)
        ORDER BY book.title_key, book.title, user.display_name LIMIT :limit OFFSET :offset
        """
    }

    private static func loan(_ row: Row) -> Loan {
        Loan(
            id: row["id"], borrowerName: row["borrower_name"], borrowerID: row["borrower_user_id"],
            lentOn: row["lent_on"], dueOn: row["due_on"])
    }
}
