import Foundation
import GRDB

/// A household member's account.
///
/// Deliberately not `Encodable`: nothing can turn a user into JSON (or anything else) with its password hash.
/// Rows are read by column name and written by `encode(to:)` below, for the database only.
public struct User: Sendable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var username: String
    public var email: String
    public var displayName: String
    public var passwordHash: String
    public var avatarPhotoId: Int64?
    public var readingGoal: Int?
    public var createdAt: Date
    /// `admin` (one per household: invitations, members, the server backup) or `member`.
    public var role = "member"
    /// The language the person chose in Settings; nil follows their browser (issue 39). Written only by
    /// `UserStore.setLanguage`, never by `encode`.
    public var language: Language? = nil

    public var isAdmin: Bool { role == "admin" }

    public static let databaseTableName = "user"

    /// Read by column name without Codable: every signed-in request loads its user.
    public init(row: Row) {
        id = row["id"]
        username = row["username"]
        email = row["email"]
        displayName = row["display_name"]
        passwordHash = row["password_hash"]
        avatarPhotoId = row["avatar_photo_id"]
        readingGoal = row["reading_goal"]
        createdAt = row["created_at"]
        role = row["role"] ?? "member"
        language = (row["language"] as String?).flatMap(Language.init(rawValue:))
    }

    public init(
        id: Int64?, username: String, email: String, displayName: String, passwordHash: String,
        avatarPhotoId: Int64?, readingGoal: Int?, createdAt: Date
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.avatarPhotoId = avatarPhotoId
        self.readingGoal = readingGoal
        self.createdAt = createdAt
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["username"] = username
        container["email"] = email
        container["display_name"] = displayName
        container["password_hash"] = passwordHash
        container["avatar_photo_id"] = avatarPhotoId
        container["reading_goal"] = readingGoal
        container["created_at"] = createdAt
        container["role"] = role
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
