import Foundation
import GRDB

/// "More like this": the books nearest in meaning to one book, among those the person may discover (their own, and
/// those of members who share: `CatalogVisibility`), each with its reasons.
///
/// Cosine alone only ties a good keyword ranking on "similar to" questions (DESIGN §14), so what a reader means by
/// similar weighs in too: the same series (its other books come first), the same author, and shared categories.
struct SimilarBooks: Sendable {
    let db: AppDatabase

    /// Larger than any cosine gap: the other books of a series lead "More like this".
    static let sameSeriesBonus: Float = 1
    static let sameAuthorBonus: Float = 0.15
    static let sharedCategoryBonus: Float = 0.05
    /// A cosine from which the reasons say "similar themes".
    static let themesFrom: Float = 0.35
    /// The same story in another kind (the film of a book, the book of a show) leads as a series does.
    static let sameStoryBonus: Float = 1
    /// The cosine from which two tellings with one name are taken for one story. A shared title alone brings two
    /// unrelated texts to about 0.4 (a cookery memoir and a heist film, both "Heat"); a novel and its film are near 0.8.
    static let sameStoryFrom: Float = 0.55

    /// How alike two books are to a reader: their cosine, plus a bonus for the same author and for each shared
    /// category (at most three count). Chosen on the "similar to" set in MeaningQualityTests.
    static func score(cosine: Float, sameAuthor: Bool, sharedCategories: Int, sameSeries: Bool = false) -> Float {
        cosine + (sameSeries ? sameSeriesBonus : 0) + (sameAuthor ? sameAuthorBonus : 0) + sharedCategoryBonus
            * Float(min(sharedCategories, 3))
    }

    /// A title as two tellings of one story are matched: before any subtitle, without a leading "The", letters and
    /// digits only ("Dune", "Dune: Part Two" and "DUNE" are one).
    static func storyKey(_ title: String) -> String {
        var main = Substring(title.lowercased())
        if let colon = main.firstIndex(where: { $0 == ":" || $0 == "(" }) { main = main[..<colon] }
        let words = main.split(separator: " ")
        let kept = words.first == "the" && words.count > 1 ? words.dropFirst() : words[...]
        return String(kept.joined().filter { $0.isLetter || $0.isNumber })
    }

    /// An author's name as compared: letters only, lower case ("J.K. Rowling" and "J. K. Rowling" are one author).
    static func nameKey(_ name: String) -> String {
        // ASCII names (most) byte by byte: Unicode properties per scalar were a twentieth of a book page.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(
                decoding: name.utf8.compactMap { byte -> UInt8? in
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
                    default: nil
                    }
                }, as: UTF8.self)
        }
        return String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic }.map(Character.init))
    }

    struct Similar: Sendable {
        let book: Book
        let score: Float
        let reasons: [Reason]
        /// The person's shelf for it, or nil when it is not in their library.
        let shelf: Shelf?
    }

    /// How many books, nearest in meaning, are looked at in full (authors, categories) before the final order.
    static let shortlist = 48

    /// Up to `limit` books like `bookID`, best first; `userID` nil (a keyless API call) finds none.
    /// nil when the book has no vector yet.
    ///
    /// The nearest books in meaning come from the book's stored list (`BookNeighbours`), those the person may not see
    /// left out; a book whose list is not made yet, or a person who sees too few of its neighbours, gets the live
    /// search over every visible vector instead. The shortlist, with the books sharing an author or the series, is
    /// then read in full and scored with its bonuses.
    func like(bookID: Int64, userID: Int64?, limit: Int) async throws -> [Similar]? {
        try await db.read { db in try Self.like(bookID: bookID, userID: userID, limit: limit, db) }
    }

    /// `like(bookID:userID:limit:)` inside the caller's read (the book page reads everything in one).
    static func like(bookID: Int64, userID: Int64?, limit: Int, _ db: Database) throws -> [Similar]? {
        guard
            let book = try Book.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM book WHERE id = ?"), arguments: [bookID]),
            let vector = MeaningVector.decode(
                try Data.fetchOne(
                    db.cachedStatement(sql: "SELECT vector FROM book_embedding WHERE book_id = ? AND model = ?"),
                    arguments: [bookID, TextEmbedder.modelID]))
        else { return nil }
        let candidate = """
            book_embedding.model = ? AND book_embedding.vector IS NOT NULL AND book.id != ?
                AND (book.isbn13 IS NULL OR book.isbn13 IS NOT ?) AND
            """
        // Over every vector, the viewer's visible set is built once; over a few given books, each is checked.
        let visible = candidate + CatalogVisibility.clause
        let visibleRow = candidate + CatalogVisibility.rowClause
        let visibleArguments: StatementArguments =
            [TextEmbedder.modelID, bookID, book.isbn13] + CatalogVisibility.arguments(userID)
        var nearest: [Int64]
        if let stored = try BookNeighbours.stored(for: bookID, db),
            let fromList = try Self.nearest(
                to: vector, listed: stored, limit: limit, visibleRow, visibleArguments, db)
        {
            nearest = fromList
        } else {
            nearest = try Self.nearestLive(to: vector, visible, visibleArguments, db)
        }
        var shortlist = Set(nearest)
        let authors = Set(book.authors.map(Self.nameKey))
        if !authors.isEmpty {
            // Books by the same author, however far in meaning ("J. K." and "J.K." compared without dots and
            // spaces here, letter by letter below), through the index on this very key.
            let keys = book.authors.map { $0.lowercased().filter { $0 != " " && $0 != "." } }
            let sameAuthor = try Int64.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT DISTINCT book.id FROM book_author
                        JOIN book ON book.id = book_author.book_id
                        JOIN book_embedding ON book_embedding.book_id = book.id
                        WHERE replace(replace(lower(book_author.name), ' ', ''), '.', '')
                            IN (SELECT value FROM json_each(?)) AND \(visibleRow)
                        LIMIT 200
                        """), arguments: [Self.jsonList(keys)] + visibleArguments)
            shortlist.formUnion(sameAuthor)
        }
        if let series = book.series {
            shortlist.formUnion(
                try Int64.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT book.id FROM book JOIN book_embedding ON book_embedding.book_id = book.id
                            WHERE book.series = ? COLLATE NOCASE AND \(visibleRow) LIMIT 200
                            """), arguments: StatementArguments([series]) + visibleArguments))
        }
        guard !shortlist.isEmpty else { return [] }
        let ids = Array(shortlist)
        let categories = Set(book.categories.map { $0.lowercased() })
        // Only what the scoring reads: a whole `Book` is decoded for the few kept (decoding every candidate
        // through Codable was a third of a book page).
        let candidates = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT book.id, book.authors, book.categories, book.series, book.series_position,
                        book.isbn13, user_book.shelf AS my_shelf, book_embedding.vector AS meaning, book.kind,
                        book.title FROM book
                    JOIN book_embedding ON book_embedding.book_id = book.id AND book_embedding.model = ?
                    LEFT JOIN user_book ON user_book.book_id = book.id AND user_book.user_id = ?
                    WHERE book.id IN (SELECT value FROM json_each(?))
                    """), arguments: [TextEmbedder.modelID, userID, Self.jsonList(ids)])
        struct Scored {
            let id: Int64
            let isbn13: String?
            let score: Float
            let reasons: [Reason]
            let shelf: Shelf?
        }
        var found: [Scored] = []
        // Columns by position, in the order selected above (by name, each lookup compared names case-insensitively),
        // the vector read in place.
        while let row = try candidates.next() {
            guard let cosine = try row.withUnsafeData(atIndex: 7, { MeaningVector.dot(vector, stored: $0) }) else {
                continue
            }
            let candidateAuthors = Book.strings(row[1])
            let sameAuthor = !authors.isDisjoint(with: candidateAuthors.map(Self.nameKey))
            let shared = Book.strings(row[2]).filter { categories.contains($0.lowercased()) }
            let series: String? = row[3]
            let sameSeries = book.series != nil && series?.caseInsensitiveCompare(book.series!) == .orderedSame
            let kind = (row[8] as String?).flatMap(TitleKind.init(rawValue:)) ?? .book
            // A title of another kind with the same name and near in meaning: the same story told again.
            let sameStory =
                kind != book.kind && cosine >= Self.sameStoryFrom && Self.storyKey(row[9]) == Self.storyKey(book.title)
            var reasons: [Reason] = []
            if sameStory { reasons.append(.sameStory(kind)) }
            if sameSeries, let place = series.flatMap({ SeriesPlace(name: $0, position: row[4]) }) {
                reasons.append(.series(place))
            }
            if sameAuthor {
                reasons.append(.author(candidateAuthors.first { authors.contains(Self.nameKey($0)) } ?? ""))
            }
            if !shared.isEmpty { reasons.append(.genres(Array(shared.prefix(2)))) }
            if cosine >= Self.themesFrom { reasons.append(.themes) }
            guard !reasons.isEmpty else { continue }
            let score =
                Self.score(
                    cosine: cosine, sameAuthor: sameAuthor, sharedCategories: shared.count, sameSeries: sameSeries)
                + (sameStory ? Self.sameStoryBonus : 0)
            found.append(
                Scored(
                    id: row[0], isbn13: row[5], score: score, reasons: reasons,
                    shelf: (row[6] as String?).flatMap(Shelf.init(rawValue:))))
        }
        // The same book twice (a shared row and someone's own copy of it) is shown once.
        var seen = Set<String>()
        let kept = found.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
            .filter { seen.insert($0.isbn13 ?? "id:\($0.id)").inserted }.prefix(limit)
        let books = Dictionary(
            uniqueKeysWithValues: try Book.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM book WHERE id IN (SELECT value FROM json_each(?))"),
                arguments: [Self.jsonList(kept.map(\.id))]
            ).map { ($0.id!, $0) })
        return kept.compactMap { scored in
            books[scored.id].map {
                Similar(book: $0, score: scored.score, reasons: scored.reasons, shelf: scored.shelf)
            }
        }
    }

    /// A list as one JSON argument (`IN (SELECT value FROM json_each(?))`), so the statement is the same whatever
    /// its length and is prepared once per connection, not on every page.
    static func jsonList(_ values: [some Encodable]) -> String {
        (try? JSONEncoder().encode(values)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// Ids written directly: an encoder for every list of ids was a fortieth of a book page.
    static func jsonList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Books in the queue past which the stored lists are not used: during an import, the live search is as quick.
    static let pendingLimit = 256

    /// The `shortlist` books nearest to `vector` among those visible, from the book's stored list and the books
    /// waiting in the queue (a new or changed vector may belong in the list and not be merged in yet): the same books
    /// the live search finds. nil when the live search is needed: too many books wait, or the list is full of books
    /// the person may not see.
    private static func nearest(
        to vector: [Float], listed: [BookNeighbours.Neighbour], limit: Int, _ visible: String,
        _ visibleArguments: StatementArguments, _ db: Database
    ) throws -> [Int64]? {
        var cosines: [Int64: Float] = [:]
        for neighbour in listed { cosines[neighbour.bookID] = neighbour.cosine }
        let waiting = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT book_embedding.book_id, book_embedding.vector FROM book_neighbours_pending
                    CROSS JOIN book_embedding ON book_embedding.book_id = book_neighbours_pending.book_id
                    WHERE book_embedding.model = ? LIMIT ?
                    """), arguments: [TextEmbedder.modelID, pendingLimit + 1])
        guard waiting.count <= pendingLimit else { return nil }
        for row in waiting {
            if let cosine = try row.withUnsafeData(atIndex: 1, { MeaningVector.dot(vector, stored: $0) }) {
                cosines[row[0]] = cosine
            }
        }
        guard !cosines.isEmpty else { return [] }
        let ids = Array(cosines.keys)
        let seen = try Int64.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT book.id FROM book JOIN book_embedding ON book_embedding.book_id = book.id
                    WHERE book.id IN (SELECT value FROM json_each(?)) AND \(visible)
                    """), arguments: [jsonList(ids)] + visibleArguments)
        // A full list the person sees little of: the books they may see are further down the catalog.
        if listed.count == BookNeighbours.count, seen.count < limit { return nil }
        return seen.sorted { cosines[$0]! != cosines[$1]! ? cosines[$0]! > cosines[$1]! : $0 < $1 }.prefix(shortlist)
            .map { $0 }
    }

    /// The `shortlist` books nearest to `vector` among all those visible, from every vector: a book whose stored list
    /// is not made yet.
    private static func nearestLive(
        to vector: [Float], _ visible: String, _ visibleArguments: StatementArguments, _ db: Database
    ) throws -> [Int64] {
        var cosines: [(id: Int64, cosine: Float)] = []
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT book.id, book_embedding.vector FROM book
                JOIN book_embedding ON book_embedding.book_id = book.id WHERE \(visible)
                """, arguments: visibleArguments)
        while let row = try rows.next() {
            if let cosine = try row.withUnsafeData(atIndex: 1, { MeaningVector.dot(vector, stored: $0) }) {
                cosines.append((row[0], cosine))
            }
        }
        return cosines.sorted { $0.cosine != $1.cosine ? $0.cosine > $1.cosine : $0.id < $1.id }.prefix(shortlist)
            .map(\.id)
    }
}
