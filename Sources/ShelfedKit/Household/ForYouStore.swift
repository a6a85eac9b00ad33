import Foundation
import GRDB
import Hummingbird

/// "For you" (issue 36, part 5): what waits for a person in the house — borrow requests to answer, books recommended
/// to them, answers to their own requests, a house challenge someone set — counted in the header of every page and
/// listed on one page, where they are marked seen; a film or episodes someone watched with them (issue 38). A request
/// or a viewing waiting for an answer counts until it is answered; the rest count until the person marks them seen
/// (`user.for_you_seen_at`).
struct ForYouStore: Sendable {
    let db: AppDatabase
    /// Counts already made, until what they count changes (`SignedInMemos`); nil counts every time.
    var memo: CommitMemo<Int64, Int>? = nil

    /// How many things wait for `userID`: one small indexed query, made once per signed-in page. The open borrow
    /// requests of the house come first (`CROSS JOIN` keeps that order): left to itself SQLite walked every one of the
    /// person's entries looking for a request, 0.5 ms of every page at 5,000 books (issue 36, part 9).
    static let countSQL = """
        SELECT
            (SELECT COUNT(*) FROM borrow_request CROSS JOIN user_book ON user_book.id = borrow_request.user_book_id
             JOIN user AS asker ON asker.id = borrow_request.requester_id
             WHERE user_book.user_id = me.id AND borrow_request.answer IS NULL AND asker.shares_reading = 1)
            + (SELECT COUNT(*) FROM recommendation WHERE recommendation.to_user = me.id
               AND recommendation.dismissed_at IS NULL AND recommendation.created_at > COALESCE(me.for_you_seen_at, ''))
            + (SELECT COUNT(*) FROM borrow_request WHERE borrow_request.requester_id = me.id
               AND borrow_request.answered_at > COALESCE(me.for_you_seen_at, ''))
            + (SELECT COUNT(*) FROM house_challenge WHERE house_challenge.set_by IS NOT me.id
               AND house_challenge.updated_at > COALESCE(me.for_you_seen_at, ''))
            + (SELECT COUNT(*) FROM watched_together WHERE watched_together.to_user = me.id
               AND watched_together.answer IS NULL)
        FROM user AS me WHERE me.id = ?
        """

    func count(for userID: Int64) async throws -> Int {
        let count = {
            try await db.read { db in
                try Int.fetchOne(db.cachedStatement(sql: Self.countSQL), arguments: [userID]) ?? 0
            }
        }
        return if let memo { try await memo.answer(for: userID, count) } else { try await count() }
    }

    /// An answer to one of the person's requests.
    struct Answer: Sendable {
        let owner: String
        let title: String
        let lent: Bool
        let isNew: Bool
    }

    /// A house challenge someone else set or changed since the person last looked.
    struct Challenge: Sendable {
        let year: Int
        let setBy: String?
        let measure: String
        let goal: Int
    }

    struct Waiting: Sendable {
        var requests: [BorrowRequestStore.Incoming] = []
        var recommendations: [RecommendationStore.Received] = []
        /// Recommendations newer than the last look, by id.
        var newRecommendations: Set<Int64> = []
        var answers: [Answer] = []
        var challenge: Challenge?
        /// Films and episodes someone watched with the person, waiting for their yes.
        var together: [WatchedTogetherStore.Waiting] = []
        var isEmpty: Bool {
            requests.isEmpty && recommendations.isEmpty && answers.isEmpty && challenge == nil && together.isEmpty
        }
    }

    /// Everything that waits, and what came since the last look. Answers are shown for 30 days.
    func waiting(for userID: Int64, now: Date) async throws -> Waiting {
        try await db.read { db in
            let seen = try Date.fetchOne(db, sql: "SELECT for_you_seen_at FROM user WHERE id = ?", arguments: [userID])
            var waiting = Waiting()
            waiting.requests = try BorrowRequestStore.incoming(db, for: userID)
            waiting.together = try WatchedTogetherStore.waiting(for: userID, db)
            waiting.recommendations = try RecommendationStore.received(db, by: userID)
            waiting.newRecommendations = Set(
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM recommendation WHERE to_user = ? AND dismissed_at IS NULL
                            AND created_at > COALESCE(?, '')
                        """, arguments: [userID, seen]))
            waiting.answers = try Row.fetchAll(
                db,
                sql: """
                    SELECT owner.display_name, book.title, borrow_request.answer,
                        borrow_request.answered_at > COALESCE(?, '') AS is_new
                    FROM borrow_request JOIN user_book ON user_book.id = borrow_request.user_book_id
                    JOIN user AS owner ON owner.id = user_book.user_id JOIN book ON book.id = user_book.book_id
                    WHERE borrow_request.requester_id = ? AND borrow_request.answered_at > ?
                    ORDER BY borrow_request.answered_at DESC LIMIT 20
                    """, arguments: [seen, userID, now.addingTimeInterval(-30 * 86_400)]
            ).map { Answer(owner: $0[0], title: $0[1], lent: ($0[2] as String?) == "lent", isNew: $0[3]) }
            waiting.challenge = try Row.fetchOne(
                db,
                sql: """
                    SELECT house_challenge.year, setter.display_name, house_challenge.measure, house_challenge.goal
                    FROM house_challenge LEFT JOIN user AS setter ON setter.id = house_challenge.set_by
                    WHERE house_challenge.set_by IS NOT ? AND house_challenge.updated_at > COALESCE(?, '')
                    ORDER BY house_challenge.year DESC LIMIT 1
                    """, arguments: [userID, seen]
            ).map { Challenge(year: $0[0], setBy: $0[1], measure: $0[2], goal: $0[3]) }
            return waiting
        }
    }

    /// Marks everything there is now as seen: the count drops to the requests still waiting for an answer.
    func markSeen(for userID: Int64, now: Date) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE user SET for_you_seen_at = ? WHERE id = ?", arguments: [now, userID])
        }
    }
}
