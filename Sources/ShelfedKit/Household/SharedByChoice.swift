import Foundation
import GRDB

/// Photos and lists a member chose to show the household (issue 25). Each is seen by others only while it is marked
/// shared *and* its owner shares their reading, so turning reading off hides all of them at once; the owner always
/// sees their own, as the others would.
extension HouseholdSharing {
    /// Marks the owner's photo shared (from `now`) or private again; false when it is not theirs.
    func setPhotoShared(_ shared: Bool, photoID: Int64, of userID: Int64, now: Date) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE photo SET shared_at = CASE WHEN :shared THEN COALESCE(shared_at, :now) END
                    WHERE id = :id AND user_id = :user AND book_id IS NOT NULL
                    """, arguments: ["shared": shared, "now": now, "id": photoID, "user": userID])
            return db.changesCount > 0
        }
    }

    /// Marks the owner's list shared or private again; false when it is not theirs.
    func setListShared(_ shared: Bool, listID: Int64, of userID: Int64, now: Date) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE list SET shared_at = CASE WHEN :shared THEN COALESCE(shared_at, :now) END
                    WHERE id = :id AND user_id = :user
                    """, arguments: ["shared": shared, "now": now, "id": listID, "user": userID])
            return db.changesCount > 0
        }
    }

    /// Whether the owner's photo / list is marked shared, and whether the owner shares at all (the owner's pages say
    /// "nobody sees it yet" when not).
    struct ShareState: Sendable, Equatable {
        let isShared: Bool
        let ownerShares: Bool
    }

    func shareState(ofPhoto photoID: Int64, of userID: Int64) async throws -> ShareState {
        try await shareState(table: "photo", id: photoID, userID: userID)
    }

    func shareState(ofList listID: Int64, of userID: Int64) async throws -> ShareState {
        try await shareState(table: "list", id: listID, userID: userID)
    }

    private func shareState(table: String, id: Int64, userID: Int64) async throws -> ShareState {
        try await db.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(table).shared_at IS NOT NULL, user.shares_reading FROM \(table)
                    JOIN user ON user.id = \(table).user_id WHERE \(table).id = ? AND \(table).user_id = ?
                    """, arguments: [id, userID])
            return ShareState(isShared: row?[0] ?? false, ownerShares: row?[1] ?? false)
        }
    }

    /// A photo as the household sees it.
    struct SharedPhoto: Sendable {
        let photo: Photo
        let member: String
        let bookTitle: String
        /// The viewer's own page for the book, when they have it.
        let viewerBookID: Int64?
    }

    /// The photo `photoID` if `viewer` may see it: their own, or one its owner shares while sharing their reading.
    func sharedPhoto(_ photoID: Int64, for viewer: Int64) async throws -> SharedPhoto? {
        try await db.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT user.display_name, book.title, (\(Self.viewersCopy)) AS mine FROM photo
                        JOIN user ON user.id = photo.user_id JOIN book ON book.id = photo.book_id
                        WHERE photo.id = :id AND (photo.user_id = :viewer
                            OR (photo.shared_at IS NOT NULL AND user.shares_reading = 1))
                        """, arguments: ["id": photoID, "viewer": viewer]),
                let photo = try Photo.fetchOne(db, key: photoID)
            else { return nil }
            return SharedPhoto(photo: photo, member: row[0], bookTitle: row[1], viewerBookID: row["mine"])
        }
    }

    /// A list as the household sees it.
    struct SharedList: Sendable {
        let id: Int64
        let ownerID: Int64
        let member: String
        let name: String
        let description: String?
    }

    /// The list `listID` if `viewer` may see it: their own, or one its owner shares while sharing their reading.
    func sharedList(_ listID: Int64, for viewer: Int64) async throws -> SharedList? {
        try await db.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT list.id, list.user_id, user.display_name, list.name, list.description FROM list
                    JOIN user ON user.id = list.user_id
                    WHERE list.id = :id AND (list.user_id = :viewer
                        OR (list.shared_at IS NOT NULL AND user.shares_reading = 1))
                    """, arguments: ["id": listID, "viewer": viewer]
            ).map { row in
                SharedList(id: row[0], ownerID: row[1], member: row[2], name: row[3], description: row[4])
            }
        }
    }

    /// For each of these catalog books that `viewer` has too (the same row, or the same ISBN-13), the viewer's row,
    /// so a shared list links to the viewer's own page for it.
    func viewersCopies(of bookIDs: [Int64], for viewer: Int64) async throws -> [Int64: Int64] {
        guard !bookIDs.isEmpty else { return [:] }
        return try await db.read { db in
            var copies: [Int64: Int64] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT book.id, (\(Self.viewersCopy)) AS mine FROM book
                    WHERE book.id IN (SELECT value FROM json_each(:books))
                    """,
                arguments: ["viewer": viewer, "books": "[" + bookIDs.map(String.init).joined(separator: ",") + "]"])
            while let row = try rows.next() {
                if let mine: Int64 = row["mine"] { copies[row["id"]] = mine }
            }
            return copies
        }
    }
}
