import Crypto
import Foundation
import GRDB

/// One device's API key as the Devices page lists it; the key itself is never stored or shown again.
public struct APIDevice: Sendable, Equatable {
    public let id: Int64
    public let label: String
    public let createdAt: Date
    public let lastUsedAt: Date?
}

/// All SQL about API keys (DESIGN §6 "Keys"): one key per signed-in device, kept as its SHA-256 only.
public struct APIKeyStore: Sendable {
    let db: AppDatabase
    /// How stale `last_used_at` may get before a request writes it again; a write on every call would put the
    /// single writer on the path of every read-only request.
    static let lastUsedResolution: TimeInterval = 60
    static let maxLabelLength = 100

    public init(db: AppDatabase) {
        self.db = db
    }

    /// Makes a new key for `userID` and returns it: 40 lowercase hex digits (160 random bits).
    public func create(for userID: Int64, label: String, now: Date) async throws -> String {
        let key = RandomHex.secret(byteCount: 20)
        let digest = Self.digest(of: key)
        let label = Self.cleanLabel(label)
        try await db.write { db in
            try db.execute(
                sql: "INSERT INTO api_token (user_id, token_sha256, label, created_at) VALUES (?, ?, ?, ?)",
                arguments: [userID, digest, label, now])
        }
        return key
    }

    /// The account a key belongs to, or nil for a malformed, unknown or revoked key.
    public func user(forKey key: String, now: Date) async throws -> User? {
        guard Self.isWellFormed(key) else { return nil }
        let digest = Self.digest(of: key)
        let found = try await db.readStatement { db -> (User, Int64, Date?)? in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT user.*, api_token.id AS token_id, api_token.last_used_at AS token_last_used
                    FROM api_token JOIN user ON user.id = api_token.user_id WHERE api_token.token_sha256 = ?
                    """)
            guard let row = try Row.fetchOne(statement, arguments: [digest]) else { return nil }
            return (User(row: row), row["token_id"], row["token_last_used"])
        }
        guard let (user, tokenID, lastUsed) = found else { return nil }
        if lastUsed.map({ now.timeIntervalSince($0) >= Self.lastUsedResolution }) ?? true {
            try await db.write { db in
                try db.execute(sql: "UPDATE api_token SET last_used_at = ? WHERE id = ?", arguments: [now, tokenID])
            }
        }
        return user
    }

    /// The user's keys, newest first.
    public func devices(of userID: Int64) async throws -> [APIDevice] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, label, created_at, last_used_at FROM api_token WHERE user_id = ? ORDER BY id DESC",
                arguments: [userID]
            ).map { APIDevice(id: $0[0], label: $0[1], createdAt: $0[2], lastUsedAt: $0[3]) }
        }
    }

    /// Revokes one of the user's keys; false when they have no key with that id.
    public func revoke(id: Int64, of userID: Int64) async throws -> Bool {
        try await db.write { db in
            try db.execute(sql: "DELETE FROM api_token WHERE id = ? AND user_id = ?", arguments: [id, userID])
            return db.changesCount > 0
        }
    }

    /// Revokes every key of the user (after a password change).
    public func revokeAll(of userID: Int64) async throws {
        try await db.write { db in
            try db.execute(sql: "DELETE FROM api_token WHERE user_id = ?", arguments: [userID])
        }
    }

    static func isWellFormed(_ key: String) -> Bool {
        key.utf8.count == 40 && key.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func digest(of key: String) -> String {
        RandomHex.hex(SHA256.hash(data: Data(key.utf8)))
    }

    /// A label a person can read on the Devices page: no control characters, at most 100 characters.
    static func cleanLabel(_ label: String) -> String {
        let visible = String(
            String.UnicodeScalarView(label.unicodeScalars.filter { !$0.properties.generalCategory.isControlOrFormat })
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        return visible.isEmpty ? "Unnamed device" : String(visible.prefix(maxLabelLength))
    }
}

extension Unicode.GeneralCategory {
    var isControlOrFormat: Bool {
        self == .control || self == .format || self == .lineSeparator || self == .paragraphSeparator
    }
}
