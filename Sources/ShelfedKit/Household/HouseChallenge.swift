import Foundation
import GRDB

/// The house reading challenge (issue 25): one goal for the year, in books or pages, set by the admin, that every
/// member who shares their reading adds to. Someone who does not share is neither counted nor named.
struct HouseChallengeStore: Sendable {
    let db: AppDatabase

    enum Measure: String, Sendable, CaseIterable {
        case books, pages

        /// The largest goal a form or the API accepts: more than any house reads, small enough to add up safely.
        var maxGoal: Int { self == .books ? 10_000 : 10_000_000 }

        func amount(_ value: Int) -> String {
            switch self {
            case .books: localized(one: "{{count}} book", other: "{{count}} books", count: value)
            case .pages: localized(one: "{{count}} page", other: "{{count}} pages", count: value)
            }
        }
    }

    struct Challenge: Sendable, Equatable {
        let year: Int
        let measure: Measure
        let goal: Int
    }

    /// The challenge of `year` with what each sharing member added, largest first.
    struct Progress: Sendable, Equatable {
        struct Contribution: Sendable, Equatable {
            let userID: Int64
            let member: String
            let amount: Int
        }

        let challenge: Challenge
        let contributions: [Contribution]
        var total: Int { contributions.reduce(0) { $0 + $1.amount } }
    }

    func challenge(of year: Int) async throws -> Challenge? {
        try await db.read { db in
            try Row.fetchOne(db, sql: "SELECT measure, goal FROM house_challenge WHERE year = ?", arguments: [year])
                .flatMap { row in
                    Measure(rawValue: row[0]).map { Challenge(year: year, measure: $0, goal: row[1]) }
                }
        }
    }

    func set(_ challenge: Challenge, by userID: Int64, now: Date) async throws {
        try await db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO house_challenge (year, measure, goal, set_by, updated_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (year) DO UPDATE SET measure = excluded.measure, goal = excluded.goal,
                        set_by = excluded.set_by, updated_at = excluded.updated_at
                    """,
                arguments: [challenge.year, challenge.measure.rawValue, challenge.goal, userID, now])
        }
    }

    func remove(year: Int) async throws {
        try await db.write { db in
            try db.execute(sql: "DELETE FROM house_challenge WHERE year = ?", arguments: [year])
        }
    }

    /// The challenge of `year` and each sharing member's part: the reads they finished that year (a re-read counts
    /// again, as on the profile) or the pages they read that year (`PagesRead`). Nil when no challenge is set.
    func progress(of year: Int) async throws -> Progress? {
        try await db.read { db in try Self.progress(db, of: year) }
    }

    static func progress(_ db: Database, of year: Int) throws -> Progress? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT measure, goal FROM house_challenge WHERE year = ?"),
                arguments: [year]),
            let measure = Measure(rawValue: row[0])
        else { return nil }
        let challenge = Challenge(year: year, measure: measure, goal: row[1])
        let (from, to) = (String(format: "%04d-", year), String(format: "%04d-", year + 1))
        // The books (never films or shows) finished in the year, as `StatisticsStore.finishedReads` counts them, for every sharing
        // member at once; the range (not LIKE) lets SQLite read only the year from the finish-date index.
        let contributions = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    WITH sharing AS (SELECT id, display_name FROM user WHERE shares_reading = 1),
                    finish AS (
                        SELECT user_book.user_id, user_book.id, user_book.book_id, user_book.finished_at
                        FROM user_book WHERE user_book.shelf = 'read'
                            AND user_book.finished_at >= :from AND user_book.finished_at < :to
                            AND +user_book.user_id IN (SELECT id FROM sharing)
                        UNION
                        SELECT user_book.user_id, user_book.id, user_book.book_id, read_through.finished_at
                        FROM read_through JOIN user_book ON user_book.id = read_through.user_book_id
                        WHERE read_through.finished_at >= :from AND read_through.finished_at < :to
                            AND user_book.user_id IN (SELECT id FROM sharing)
                    )
                    SELECT sharing.id, sharing.display_name, COUNT(book.id) AS books
                    FROM sharing LEFT JOIN finish ON finish.user_id = sharing.id
                        LEFT JOIN book ON book.id = finish.book_id AND book.kind = 'book'
                    GROUP BY sharing.id
                    """), arguments: ["from": from, "to": to]
        ).map { row in
            // Pages as the profile counts them (`PagesRead`): journal progress, and reads finished without one.
            let amount =
                measure == .books
                ? row["books"] as Int
                : try PagesRead.of(row[0], from: from + "01-01", to: to + "01-01", db).total(
                    from: from + "01-01", to: to + "01-01")
            return Progress.Contribution(userID: row[0], member: row[1], amount: amount)
        }
        return Progress(
            challenge: challenge,
            contributions: contributions.sorted {
                $0.amount != $1.amount
                    ? $0.amount > $1.amount
                    : $0.member.localizedCaseInsensitiveCompare($1.member) == .orderedAscending
            })
    }
}
