import Foundation
import GRDB

/// All SQL about photos, always scoped to their owner.
public struct PhotoStore: Sendable {
    let db: AppDatabase

    public enum Order: String, Sendable {
        case page, date
    }

    public init(db: AppDatabase) {
        self.db = db
    }

    /// Why a finished upload could not be kept: what it belongs to went away while it was arriving.
    public enum Gone: Error, Sendable {
        case account, book
    }

    /// Inserts the photo, checking in the same transaction that its owner and book are still there (an upload
    /// can take a minute, and the account or the book may be removed meanwhile).
    public func insert(_ photo: Photo) async throws -> Photo {
        try await db.write { db in
            guard
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM user WHERE id = ?)", arguments: [photo.userId])
                    == true
            else { throw Gone.account }
            if let bookID = photo.bookId,
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM user_book WHERE user_id = ? AND book_id = ?)",
                    arguments: [photo.userId, bookID]) != true
            {
                throw Gone.book
            }
            var photo = photo
            try photo.insert(db)
            return photo
        }
    }

    /// Every stored file path of every photo, for the start-up check that no file is left without a row.
    func allFilePaths() throws -> Set<String> {
        try db.writer.read { db in
            var paths = Set<String>()
            let rows = try Row.fetchCursor(db, sql: "SELECT original_path, display_path, thumb_path FROM photo")
            while let row = try rows.next() {
                for index in 0..<3 { paths.insert(row[index]) }
            }
            return paths
        }
    }

    /// The user's photo, or nil when it is unknown or someone else's.
    public func photo(id: Int64, of userID: Int64) async throws -> Photo? {
        try await db.read { db in
            try Photo.filter(Column("id") == id && Column("user_id") == userID).fetchOne(db)
        }
    }

    /// The user's photos of one book: by page (photos without a page last) or newest first.
    public func photos(ofBook bookID: Int64, userID: Int64, order: Order = .date, limit: Int? = nil) async throws
        -> [Photo]
    {
        try await db.read { db in
            var request = Photo.filter(Column("user_id") == userID && Column("book_id") == bookID)
            switch order {
            case .page:
                // A book's photos by page; a film's by time; a show's by episode, then time. Photos without a place
                // come last.
                request = request.order(
                    Column("page_number") == nil && Column("moment_season") == nil && Column("moment_seconds") == nil,
                    Column("page_number"), Column("moment_season"), Column("moment_episode"), Column("moment_seconds"),
                    Column("created_at").desc)
            case .date:
                request = request.order(Column("created_at").desc, Column("id").desc)
            }
            if let limit { request = request.limit(limit) }
            return try request.fetchAll(db)
        }
    }

    /// The latest `limit` photos of one book and how many there are, inside the caller's read (the book page's strip).
    static func latest(ofBook bookID: Int64, userID: Int64, limit: Int, _ db: Database) throws -> (
        photos: [Photo], count: Int
    ) {
        let photos = try Photo.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT * FROM photo WHERE user_id = ? AND book_id = ? ORDER BY created_at DESC, id DESC LIMIT ?
                    """), arguments: [userID, bookID, limit])
        let count =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM photo WHERE user_id = ? AND book_id = ?"),
                arguments: [userID, bookID]) ?? 0
        return (photos, count)
    }

    public func count(ofBook bookID: Int64, userID: Int64) async throws -> Int {
        try await db.read { db in
            try Photo.filter(Column("user_id") == userID && Column("book_id") == bookID).fetchCount(db)
        }
    }

    /// How many book photos the user has uploaded (the profile picture not counted).
    public func count(of userID: Int64) async throws -> Int {
        try await db.read { db in
            try Photo.filter(Column("user_id") == userID && Column("book_id") != nil).fetchCount(db)
        }
    }

    /// The user's latest book photos across all books, with each book's title.
    public func latestUploads(of userID: Int64, limit: Int) async throws -> [(photo: Photo, bookTitle: String)] {
        try await db.read { db in
            // One query with the titles joined in, rather than one title lookup per photo.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT photo.*, book.title AS book_title FROM photo JOIN book ON book.id = photo.book_id
                    WHERE photo.user_id = ? ORDER BY photo.created_at DESC, photo.id DESC LIMIT ?
                    """, arguments: [userID, limit])
            return try rows.map { (try Photo(row: $0), $0["book_title"] as String) }
        }
    }

    /// Changes where the photo belongs (page, or episode and time) and its comment; false when it is not the user's.
    func update(id: Int64, of userID: Int64, place: PhotoPlace, comment: String?) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE photo SET page_number = ?, moment_season = ?, moment_episode = ?, moment_seconds = ?,
                        comment = ?
                    WHERE id = ? AND user_id = ?
                    """,
                arguments: [
                    place.page, place.moment?.season, place.moment?.episode, place.moment?.seconds, comment, id, userID,
                ])
            return db.changesCount > 0
        }
    }

    /// What a photo's place is checked against: the title's kind, page count and running time, and a show's last
    /// episode in each season.
    func target(of book: Book?) async throws -> PhotoTarget {
        var target = PhotoTarget(book)
        guard let book, book.kind == .show, let bookID = book.id else { return target }
        target.lastEpisodes = try await db.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT season, MAX(number) AS last FROM episode WHERE book_id = ? GROUP BY season",
                arguments: [bookID])
            return Dictionary(rows.map { ($0["season"] as Int, $0["last"] as Int) }) { first, _ in first }
        }
        return target
    }

    /// Deletes the row and returns it, so its files can go too; nil when it is not the user's.
    public func delete(id: Int64, of userID: Int64) async throws -> Photo? {
        try await db.write { db in
            guard let photo = try Photo.filter(Column("id") == id && Column("user_id") == userID).fetchOne(db) else {
                return nil
            }
            try db.execute(sql: "UPDATE user SET avatar_photo_id = NULL WHERE avatar_photo_id = ?", arguments: [id])
            _ = try photo.delete(db)
            return photo
        }
    }

    /// Makes `photoID` the user's profile picture and returns the one it replaces, if any.
    public func setAvatar(_ photoID: Int64, for userID: Int64) async throws -> Photo? {
        try await db.write { db in
            let previousID = try Int64.fetchOne(
                db, sql: "SELECT avatar_photo_id FROM user WHERE id = ?", arguments: [userID])
            try db.execute(sql: "UPDATE user SET avatar_photo_id = ? WHERE id = ?", arguments: [photoID, userID])
            guard let previousID, let previous = try Photo.fetchOne(db, key: previousID) else { return nil }
            _ = try previous.delete(db)
            return previous
        }
    }
}
