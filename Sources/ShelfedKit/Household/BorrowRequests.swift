import Foundation
import GRDB
import Hummingbird

/// "Ask to borrow" (issue 25): a member asks for a copy another member who shares owns; the owner sees the request on
/// their home page and lends the copy (a loan from today) or declines. Only between members who share: someone who
/// stops sharing stops being asked, and their open requests to others stay theirs to withdraw by answering.
struct BorrowRequestStore: Sendable {
    let db: AppDatabase

    /// A request waiting for the owner.
    struct Incoming: Sendable, Equatable {
        let id: Int64
        let requester: String
        let title: String
        let bookID: Int64
    }

    /// A request the person made, and what became of it.
    struct Outgoing: Sendable, Equatable {
        let owner: String
        let title: String
        let answer: String?
    }

    enum Refusal: Error, Equatable {
        case notAvailable
    }

    /// Asks for copy `entryID` on behalf of `requester`: the copy must be owned by another member who shares; asking
    /// twice is one request.
    func ask(for entryID: Int64, requester: Int64, now: Date) async throws {
        try await db.write { db in
            guard
                try Bool.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT 1 FROM user_book JOIN user ON user.id = user_book.user_id
                            WHERE user_book.id = ? AND user_book.owned = 1 AND user.shares_reading = 1 AND user.id != ?
                            """), arguments: [entryID, requester]) == true
            else { throw Refusal.notAvailable }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO borrow_request (user_book_id, requester_id, created_at) VALUES (?, ?, ?)
                    """, arguments: [entryID, requester, now])
        }
    }

    /// Requests waiting for `owner`, from members who still share, oldest first.
    func incoming(for owner: Int64) async throws -> [Incoming] {
        try await db.read { db in try Self.incoming(db, for: owner) }
    }

    /// The house's open requests come first (`CROSS JOIN` keeps that order): left to itself SQLite walked every one of
    /// the owner's entries looking for one, 0.9 ms of the home page at 5,000 books.
    static func incoming(_ db: Database, for owner: Int64) throws -> [Incoming] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT borrow_request.id, user.display_name, book.title, book.id FROM borrow_request
                    CROSS JOIN user_book ON user_book.id = borrow_request.user_book_id
                    JOIN user ON user.id = borrow_request.requester_id JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND borrow_request.answer IS NULL AND user.shares_reading = 1
                    ORDER BY borrow_request.created_at LIMIT 50
                    """), arguments: [owner]
        ).map { Incoming(id: $0[0], requester: $0[1], title: $0[2], bookID: $0[3]) }
    }

    /// The person's open requests, newest first; a request to someone who has stopped sharing is not shown (they
    /// appear nowhere), and comes back if they share again.
    func outgoing(for requester: Int64) async throws -> [Outgoing] {
        try await db.read { db in try Self.outgoing(db, for: requester) }
    }

    static func outgoing(_ db: Database, for requester: Int64) throws -> [Outgoing] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT user.display_name, book.title, borrow_request.answer FROM borrow_request
                    JOIN user_book ON user_book.id = borrow_request.user_book_id
                    JOIN user ON user.id = user_book.user_id JOIN book ON book.id = user_book.book_id
                    WHERE borrow_request.requester_id = ? AND borrow_request.answer IS NULL
                        AND user.shares_reading = 1
                    ORDER BY borrow_request.created_at DESC LIMIT 20
                    """), arguments: [requester]
        ).map { Outgoing(owner: $0[0], title: $0[1], answer: $0[2]) }
    }

    /// Answers a request made to `owner`: lends the copy to the requester from `today`, or declines. False when
    /// there is no such open request of theirs (answered already, or someone else's).
    func answer(_ id: Int64, owner: Int64, lend: Bool, today: String, now: Date) async throws -> Bool {
        try await db.write { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT borrow_request.user_book_id, borrow_request.requester_id, user.display_name
                            FROM borrow_request JOIN user_book ON user_book.id = borrow_request.user_book_id
                            JOIN user ON user.id = borrow_request.requester_id
                            WHERE borrow_request.id = ? AND user_book.user_id = ? AND borrow_request.answer IS NULL
                            """), arguments: [id, owner])
            else { return false }
            let entryID: Int64 = row[0]
            if lend {
                // The owner must still have the copy; the rest is the lend form's rules.
                guard
                    try Bool.fetchOne(db, sql: "SELECT owned FROM user_book WHERE id = ?", arguments: [entryID]) == true
                else { throw LoanStore.Refusal.notOwned }
                try LoanStore.open(
                    entryID: entryID, lender: owner, to: row[1], name: row[2], lentOn: today, dueOn: nil, db)
            }
            try db.execute(
                sql: "UPDATE borrow_request SET answer = ?, answered_at = ? WHERE id = ?",
                arguments: [lend ? "lent" : "declined", now, id])
            return true
        }
    }
}

/// The web side: "Ask to borrow" on a book page's "In the house", and the owner's answer from their home page.
struct BorrowRequestController: Sendable {
    let requests: BorrowRequestStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.borrowAsk.routerPath, use: ask)
        router.post(Route.borrowAnswer.routerPath, use: answer)
    }

    /// POST /house/copies/:entryID/ask (`return_to`)
    @Sendable func ask(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let entryID = BoundedNumber.id(context.parameters.get("entryID")) else {
            throw AppError.notFound(localized("There is no such copy in the house."))
        }
        var request = request
        let back = safeRelativePath(try await request.formFields().trimmed("return_to")) ?? Paths.house
        do {
            try await requests.ask(for: entryID, requester: context.userID, now: clock.now())
        } catch BorrowRequestStore.Refusal.notAvailable {
            throw AppError.notFound(
                localized("There is no such copy in the house. Its owner may have stopped sharing."))
        }
        return .seeOther(ActionNotice.link(back, adding: [("saved", "asked")], anchor: "house-heading"))
    }

    /// POST /house/requests/:requestID (`answer`: lend or decline)
    @Sendable func answer(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let id = BoundedNumber.id(context.parameters.get("requestID")) else {
            throw AppError.notFound(localized("There is no such request."))
        }
        var request = request
        let form = try await request.formFields()
        let answer = form["answer"]
        let back = safeRelativePath(form.trimmed("return_to")) ?? Paths.home
        guard answer == "lend" || answer == "decline" else {
            throw AppError.invalid(localized("Choose Lend it or Decline."), field: "answer")
        }
        do {
            guard
                try await requests.answer(
                    id, owner: context.userID, lend: answer == "lend", today: clock.today(), now: clock.now())
            else { throw AppError.notFound(localized("There is no such request. It may have been answered already.")) }
        } catch LoanStore.Refusal.alreadyOnLoan {
            throw AppError.conflict(
                localized("That copy is on loan already. Mark it returned first, then lend it again."))
        } catch LoanStore.Refusal.notOwned {
            throw AppError.conflict(
                localized("Your copy is no longer marked as one you own.") + " "
                    + localized("Open the book, tick “I own a copy”, then lend it."))
        } catch LoanStore.Refusal.notYours {
            throw AppError.conflict(
                localized("They no longer share with the household, so Shelfed cannot lend to them.") + " "
                    + localized("Decline the request, or lend it from the book page by typing their name."))
        }
        return .seeOther(
            ActionNotice.link(back, adding: [("saved", answer == "lend" ? "request-lent" : "request-declined")]))
    }
}
