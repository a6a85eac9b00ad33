import Foundation
import GRDB

/// Provider answers kept in SQLite with an expiry, so repeated searches are instant and the library's
/// own pages never depend on the network.
struct SearchCache: Sendable {
    let db: AppDatabase
    let now: @Sendable () -> Date

    func value<T: Decodable & Sendable>(_ type: T.Type, for key: String) async throws -> T? {
        let now = self.now()
        let body = try await db.read { db in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT body FROM search_cache WHERE key = ? AND expires_at > ?"),
                arguments: [key, now])
        }
        return try body.map { try JSONDecoder().decode(type, from: $0) }
    }

    func store<T: Encodable & Sendable>(_ value: T, for key: String, lifetime: TimeInterval) async throws {
        let body = try JSONEncoder().encode(value)
        let now = self.now()
        try await db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO search_cache (key, body, fetched_at, expires_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at,
                        expires_at = excluded.expires_at
                    """, arguments: [key, body, now, now.addingTimeInterval(lifetime)])
        }
    }
}
