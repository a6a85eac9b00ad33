import Foundation
import GRDB
import Hummingbird

/// Keeps Hummingbird's persisted key/values (the login sessions) in the `session` table, so sign-ins
/// survive a restart. Expired rows are never returned and are swept whenever a new session is created.
public struct SQLitePersistDriver: PersistDriver {
    let db: AppDatabase
    let now: @Sendable () -> Date
    /// Sessions already read and decoded (`SignedInMemos`); nil reads every time.
    let memo: CommitMemo<String, Kept>?

    /// A session as read: its decoded value and when it expires.
    struct Kept: Sendable {
        let object: any Sendable
        let expiresAt: Date?
    }

    public init(db: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(db: db, now: now, memo: nil)
    }

    init(db: AppDatabase, now: @escaping @Sendable () -> Date, memo: CommitMemo<String, Kept>?) {
        self.db = db
        self.now = now
        self.memo = memo
    }

    public func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let data = try JSONEncoder().encode(value)
        let now = self.now()
        let expiresAt = expires.map { now.addingTimeInterval($0.seconds) }
        try await db.write { db in
            try db.execute(sql: "DELETE FROM session WHERE expires_at <= ?", arguments: [now])
            do {
                try db.execute(
                    sql: "INSERT INTO session (key, value, expires_at) VALUES (?, ?, ?)",
                    arguments: [key, data, expiresAt])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw PersistError.duplicate
            }
        }
    }

    public func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let data = try JSONEncoder().encode(value)
        let expiresAt = expires.map { self.now().addingTimeInterval($0.seconds) }
        try await db.write { db in
            // With no new expiry the row keeps the one it had.
            try db.execute(
                sql: """
                    INSERT INTO session (key, value, expires_at) VALUES (?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET value = excluded.value,
                        expires_at = COALESCE(excluded.expires_at, session.expires_at)
                    """,
                arguments: [key, data, expiresAt])
        }
    }

    public func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    public func getWithTTL<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws
        -> (object: Object, ttl: Duration?)?
    {
        let now = self.now()
        // Read before the database, so a commit meanwhile keeps this answer out of the memo (`CommitMemo`).
        let generation = memo?.generation()
        if let generation, let kept = memo?.value(for: key, generation: generation), let object = kept.object as? Object
        {
            guard let expiresAt = kept.expiresAt else { return (object, nil) }
            return expiresAt > now ? (object, .seconds(expiresAt.timeIntervalSince(now))) : nil
        }
        let stored = try await db.readStatement { db -> (Data, Date?)? in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql:
                            "SELECT value, expires_at FROM session WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)"
                    ),
                    arguments: [key, now])
            else { return nil }
            return (row["value"], row["expires_at"])
        }
        guard let (data, expiresAt) = stored else { return nil }
        do {
            let object = try JSONDecoder().decode(type, from: data)
            // Only sessions that exist are kept: cookies made up by anyone would push the real ones out.
            if let generation {
                memo?.keep(Kept(object: object, expiresAt: expiresAt), for: key, generation: generation)
            }
            return (object, expiresAt.map { .seconds($0.timeIntervalSince(now)) })
        } catch {
            throw PersistError.invalidConversion
        }
    }

    public func remove(key: String) async throws {
        try await db.write { db in
            try db.execute(sql: "DELETE FROM session WHERE key = ?", arguments: [key])
        }
    }
}

extension Duration {
    /// The duration as fractional seconds.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
