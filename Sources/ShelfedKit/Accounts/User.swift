import Foundation
import GRDB

/// A household member's account.
public struct User: Codable, Sendable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var username: String
    public var email: String
    public var displayName: String
    public var passwordHash: String
    public var avatarPhotoId: Int64?
    public var readingGoal: Int?
    public var createdAt: Date

    public static let databaseTableName = "user"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
