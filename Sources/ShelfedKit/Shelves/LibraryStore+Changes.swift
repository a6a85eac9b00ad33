import Foundation
import GRDB

/// The metadata of a book about to enter the catalog.
public struct NewBook: Sendable {
    public var title: String
    public var subtitle: String?
    public var authors: [String] = []
    public var isbn: ISBN?
    public var googleVolumeId: String?
    public var pageCount: Int?
    public var publishedDate: String?
    public var publisher: String?
    public var description: String?
    public var categories: [String] = []
    public var language: String?
    public var source: Book.Source = .manual
    var series: SeriesPlace? = nil
    var community: CommunityRating? = nil
    public var kind: TitleKind = .book
    public var runtimeMinutes: Int? = nil
    /// A film's or show's provider title ("tmdb:movie:550"), its other ids, first cast names and a show's seasons.
    var providerKey: String? = nil
    var externalIDs: [String: String] = [:]
    var castNames: [String] = []
    var seasons: [ScreenSeason] = []

    public init(title: String) {
        self.title = title
    }

    /// Provider data is shared by everyone who adds it; what a person typed or imported stays theirs.
    var isShared: Bool { source.isProvider }
}

/// The user already has this book; `bookID` is where it is.
public struct AlreadyInLibrary: Error, Equatable {
    public let bookID: Int64
}

extension LibraryStore {
    /// Puts a book on one of the user's shelves. A provider's book reuses the shared catalog row with the same
    /// volume id or ISBN-13; a hand-typed or imported book always gets a row of the user's own. Throws
    /// `AlreadyInLibrary` when the user has that book already (same volume id or ISBN-13, or the same title and
    /// authors for books without either).
    ///
    /// `finishedUnknown` adds a book to Read without a finish date (the web asks when it was finished rather than
    /// counting a book read years ago as read today).
    public func add(
        _ new: NewBook, to shelf: Shelf, for userID: Int64, now: Date, today: String, finishedUnknown: Bool = false
    ) async throws -> Int64 {
        try await db.write { db in
            if let twin = try Self.userCopy(of: new, userID: userID, db: db) {
                throw AlreadyInLibrary(bookID: twin)
            }
            let writer = CatalogWriter(db: db)
            let nowValue = now.databaseValue
            let bookID =
                try (new.isShared ? Self.sharedBook(matching: new, db: db)?.id : nil)
                ?? writer.insert(
                    CatalogWriter.NewRow(
                        title: new.title, subtitle: new.subtitle, authors: new.authors, isbn10: new.isbn?.isbn10,
                        isbn13: new.isbn?.isbn13, googleVolumeID: new.googleVolumeId, publisher: new.publisher,
                        publishedDate: new.publishedDate, description: new.description, pageCount: new.pageCount,
                        categories: new.categories, language: new.language, source: new.source,
                        owner: new.isShared ? nil : userID, externalIDs: new.externalIDs, series: new.series,
                        community: new.community, kind: new.kind, runtimeMinutes: new.runtimeMinutes,
                        providerKey: new.providerKey, castNames: new.castNames, seasons: new.seasons),
                    at: nowValue)
            if try Self.request(of: userID, filter: .all).filter(Column("book_id") == bookID).fetchCount(db) > 0 {
                throw AlreadyInLibrary(bookID: bookID)
            }
            var entry = UserBook(
                id: nil, userId: userID, bookId: bookID, shelf: shelf, favourite: false, rating: nil, review: nil,
                currentPage: nil, addedAt: now, startedAt: nil, finishedAt: nil, updatedAt: now)
            if !(finishedUnknown && shelf == .read) { entry.applyMove(to: shelf, today: today) }
            _ = try writer.insert(
                CatalogWriter.NewEntry(
                    userID: userID, bookID: bookID, shelf: shelf, addedAt: nowValue, startedAt: entry.startedAt,
                    finishedAt: entry.finishedAt),
                at: nowValue)
            return bookID
        }
    }

    /// Moves the user's book to `shelf`, starting or finishing it today where it has no such date yet; a date it
    /// replaces is kept as an earlier read (`UserBook.move(to:today:_:)`). False when absent.
    @discardableResult
    public func move(
        bookID: Int64, to shelf: Shelf, for userID: Int64, now: Date, today: String, leavingUnsureUndated: Bool = false
    ) async throws -> Bool {
        try await update(bookID: bookID, for: userID, now: now) { entry, db in
            try entry.move(to: shelf, today: today, now: now, leavingUnsureUndated: leavingUnsureUndated, db)
        }
    }

    /// Marks or unmarks the user's book as a favourite. False when absent.
    @discardableResult
    public func setFavourite(bookID: Int64, _ favourite: Bool, for userID: Int64, now: Date) async throws -> Bool {
        try await update(bookID: bookID, for: userID, now: now) { entry, _ in entry.favourite = favourite }
    }

    /// Sets the start and finish dates (`yyyy-mm-dd`, already validated). False when absent.
    @discardableResult
    public func setDates(bookID: Int64, started: String?, finished: String?, for userID: Int64, now: Date)
        async throws -> Bool
    {
        try await update(bookID: bookID, for: userID, now: now) { entry, _ in
            entry.startedAt = started
            entry.finishedAt = finished
        }
    }

    /// Takes the book off the user's shelves together with their photos of it, and drops the catalog row when it
    /// was theirs alone (a shared row stays). Returns the removed photos, whose files the caller deletes; nil when
    /// the user does not have the book.
    public func remove(bookID: Int64, for userID: Int64) async throws -> [Photo]? {
        try await db.write { db in
            guard try Self.request(of: userID, filter: .all).filter(Column("book_id") == bookID).deleteAll(db) > 0
            else { return nil }
            let photos = try Photo.filter(Column("user_id") == userID && Column("book_id") == bookID).fetchAll(db)
            try db.execute(
                sql:
                    "UPDATE user SET avatar_photo_id = NULL WHERE id = ? AND avatar_photo_id IN (SELECT id FROM photo WHERE user_id = ? AND book_id = ?)",
                arguments: [userID, userID, bookID])
            try db.execute(sql: "DELETE FROM photo WHERE user_id = ? AND book_id = ?", arguments: [userID, bookID])
            try db.execute(
                sql:
                    "DELETE FROM book_author WHERE book_id IN (SELECT id FROM book WHERE id = ? AND owner_user_id = ?)",
                arguments: [bookID, userID])
            try db.execute(sql: "DELETE FROM book WHERE id = ? AND owner_user_id = ?", arguments: [bookID, userID])
            return photos
        }
    }

    func update(
        bookID: Int64, for userID: Int64, now: Date,
        _ change: @Sendable @escaping (inout UserBook, Database) throws -> Void
    )
        async throws -> Bool
    {
        try await db.write { db in
            guard
                var entry = try Self.request(of: userID, filter: .all)
                    .filter(Column("book_id") == bookID).fetchOne(db)
            else { return false }
            try change(&entry, db)
            entry.updatedAt = now
            try entry.update(db)
            return true
        }
    }

    /// The shared (provider) row for this volume or ISBN-13; owned rows are never matched.
    private static func sharedBook(matching new: NewBook, db: Database) throws -> Book? {
        let shared = Book.filter(Column("owner_user_id") == nil)
        if let key = new.providerKey {
            return try shared.filter(Column("provider_key") == key).fetchOne(db)
        }
        if let volume = new.googleVolumeId,
            let book = try shared.filter(Column("google_volume_id") == volume).fetchOne(db)
        {
            return book
        }
        if let isbn13 = new.isbn?.isbn13 {
            return try shared.filter(Column("isbn13") == isbn13).fetchOne(db)
        }
        return nil
    }

    /// The catalog id of the user's own entry for this book, whether it sits on a shared or an owned row.
    private static func userCopy(of new: NewBook, userID: Int64, db: Database) throws -> Int64? {
        let owned = "SELECT book.id FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = ?"
        if let key = new.providerKey,
            let id = try Int64.fetchOne(db, sql: owned + " AND book.provider_key = ?", arguments: [userID, key])
        {
            return id
        }
        // The same film from another provider, known by its IMDb id.
        if let imdb = new.externalIDs["imdb"], new.kind != .book,
            let id = try Int64.fetchOne(
                db, sql: owned + " AND book.kind = ? AND json_extract(book.external_ids, '$.imdb') = ?",
                arguments: [userID, new.kind.rawValue, imdb])
        {
            return id
        }
        // A remake shares its title, and often its director, with the film it remakes: a provider's title is the same
        // only by its provider's id or its IMDb id.
        if new.providerKey != nil { return nil }
        if let volume = new.googleVolumeId,
            let id = try Int64.fetchOne(db, sql: owned + " AND book.google_volume_id = ?", arguments: [userID, volume])
        {
            return id
        }
        if let isbn13 = new.isbn?.isbn13 {
            return try Int64.fetchOne(db, sql: owned + " AND book.isbn13 = ?", arguments: [userID, isbn13])
        }
        guard new.googleVolumeId == nil else { return nil }
        // Rows written before `CatalogWriter` kept authors as Foundation encodes them (`\/` for a slash).
        let authors = CatalogWriter.jsonArray(new.authors)
        let olderAuthors = String(decoding: try JSONEncoder().encode(new.authors), as: UTF8.self)
        return try Int64.fetchOne(
            db,
            sql: owned
                + " AND book.title = ? COLLATE NOCASE AND lower(book.authors) IN (lower(?), lower(?)) AND book.kind = ?",
            // The book and its film may share a title and, typed without names, their empty authors.
            arguments: [userID, new.title, authors, olderAuthors, new.kind.rawValue])
    }
}

extension UserBook {
    /// A new entry on Reading starts today; on Read it is finished today.
    mutating func applyMove(to shelf: Shelf, today: String) {
        switch shelf {
        case .wantToRead:
            break
        case .reading:
            startedAt = today
        case .read:
            finishedAt = today
        case .didNotFinish:
            stoppedAt = today
        }
    }
}

extension LibraryStore {
    /// Records a downloaded cover for a catalog book that has none; false when another cover won the race.
    public func setCover(bookID: Int64, path: String, now: Date) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: "UPDATE book SET cover_path = ?, updated_at = ? WHERE id = ? AND cover_path IS NULL",
                arguments: [path, now, bookID])
            return db.changesCount > 0
        }
    }

    /// Which of these books (by Google volume id or ISBN-13) the user has, and on which shelf.
    public func shelves(of userID: Int64, volumeIDs: [String], isbn13s: [String]) async throws
        -> [String: (bookID: Int64, shelf: Shelf)]
    {
        guard !volumeIDs.isEmpty || !isbn13s.isEmpty else { return [:] }
        return try await db.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.google_volume_id, book.isbn13, user_book.shelf
                    FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND (book.google_volume_id IN (SELECT value FROM json_each(?))
                        OR book.isbn13 IN (SELECT value FROM json_each(?)))
                    """,
                arguments: [userID, Self.jsonArray(volumeIDs), Self.jsonArray(isbn13s)])
            var found: [String: (bookID: Int64, shelf: Shelf)] = [:]
            for row in rows {
                let entry = (bookID: row[0] as Int64, shelf: Shelf(rawValue: row[3]) ?? .wantToRead)
                if let volume: String = row[1] { found["volume:" + volume] = entry }
                if let isbn: String = row[2] { found["isbn:" + isbn] = entry }
            }
            return found
        }
    }

    private static func jsonArray(_ values: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
