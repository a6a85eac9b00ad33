import Foundation
import GRDB

/// A person's own book searches (the search page and the search API with their key), kept for a week, for
/// `GET /api/v2/trending-searches`. A person sees only their own, whether or not they share their reading: what someone
/// types into search is never shared (DESIGN §15). The rows go with the account.
struct SearchHistory: Sendable {
    let db: AppDatabase

    /// How far back trending looks, and how long a search is kept.
    static let window: TimeInterval = 7 * 24 * 60 * 60
    /// The most searches kept per person: a client searching in a loop cannot grow the database without bound.
    static let maxKept = 2_000
    /// Longer queries are kept cut to this many characters.
    static let maxQueryLength = 120

    /// One query and how often it was searched.
    struct Trend: Sendable, Equatable {
        let query: String
        let count: Int
    }

    /// Records a search of `text`; an empty one, or an ISBN (a lookup, not a topic), is not kept.
    func record(_ text: String, userID: Int64, now: Date) async throws {
        guard let query = Self.cleaned(text), ISBN(query) == nil else { return }
        try await db.write { db in
            try db.execute(
                sql: "INSERT INTO search_history (user_id, query, query_key, searched_at) VALUES (?, ?, ?, ?)",
                arguments: [userID, query, Self.key(query), now])
            try db.execute(
                sql: """
                    DELETE FROM search_history WHERE user_id = ? AND (searched_at < ? OR id <= (
                        SELECT id FROM search_history WHERE user_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?))
                    """, arguments: [userID, now.addingTimeInterval(-Self.window), userID, Self.maxKept])
        }
    }

    /// The most searched queries of the last week, most often first (then most recent), each as last typed: the
    /// person's own only. Sharing one's reading shares statuses and ratings, never searches (issue 35).
    func trending(of userID: Int64, now: Date, limit: Int) async throws -> [Trend] {
        try await db.read { db in
            // SQLite takes the bare `query` from the row that holds MAX(id): the latest spelling.
            try Row.fetchAll(
                db,
                sql: """
                    SELECT query, COUNT(*) AS count, MAX(id) AS latest FROM search_history
                    WHERE user_id = :user AND searched_at >= :since
                    GROUP BY query_key ORDER BY count DESC, latest DESC LIMIT :limit
                    """, arguments: ["user": userID, "since": now.addingTimeInterval(-Self.window), "limit": limit]
            ).map { Trend(query: $0["query"], count: $0["count"]) }
        }
    }

    /// The query as kept: control characters gone, spaces collapsed, at most `maxQueryLength` characters; nil
    /// when nothing is left.
    static func cleaned(_ text: String) -> String? {
        let words = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let collapsed = String(words).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !collapsed.isEmpty else { return nil }
        return String(collapsed.prefix(maxQueryLength))
    }

    /// Searches that differ only in case or accents count as one.
    static func key(_ query: String) -> String {
        query.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
