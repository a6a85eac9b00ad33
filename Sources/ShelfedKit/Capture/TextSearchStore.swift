import Foundation
import GRDB

/// Full-text search over one user's photos ("search my quotes") and library ("search my library"), with FTS5.
/// Every query joins to the user's own rows; the index holds everyone's, the answers only theirs.
struct TextSearchStore: Sendable {
    let db: AppDatabase

    /// The most results one search shows.
    static let limit = 50
    /// Around each match in a snippet; replaced by `<mark>` when the page is written.
    static let matchStart = "\u{E000}"
    static let matchEnd = "\u{E001}"

    struct QuoteMatch: Sendable {
        let photo: Photo
        let bookTitle: String
        let snippet: String
    }

    struct LibraryMatch: Sendable {
        let bookID: Int64
        let title: String
        let authors: String
        let shelf: Shelf
        let snippet: String
        let coverPath: String?
    }

    /// What the user typed as an FTS5 query that cannot be misread as FTS5 syntax: each run of letters and digits
    /// becomes a quoted term (all must match, in any order); the last is a prefix, so results come while typing.
    /// nil when nothing searchable is left.
    static func ftsQuery(_ text: String) -> String? {
        ftsTerms(text).map { $0.joined(separator: " ") + "*" }
    }

    private static func ftsTerms(_ text: String) -> [String]? {
        var terms: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(300) {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else if !current.isEmpty {
                terms.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { terms.append(String(current)) }
        guard !terms.isEmpty else { return nil }
        return terms.prefix(12).map { "\"\($0)\"" }
    }

    func quotes(of userID: Int64, matching text: String) async throws -> [QuoteMatch] {
        guard let query = Self.ftsQuery(text) else { return [] }
        return try await db.read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT photo.*, book.title AS book_title, snippet(photo_fts, -1, ?, ?, '…', 16) AS passage
                    FROM photo_fts
                    JOIN photo ON photo.id = photo_fts.rowid
                    JOIN book ON book.id = photo.book_id
                    WHERE photo_fts MATCH ? AND photo.user_id = ?
                    ORDER BY photo_fts.rank LIMIT ?
                    """)
            return try Row.fetchAll(statement, arguments: [Self.matchStart, Self.matchEnd, query, userID, Self.limit])
                .map { row in
                    QuoteMatch(photo: try Photo(row: row), bookTitle: row["book_title"], snippet: row["passage"])
                }
        }
    }

    func library(of userID: Int64, matching text: String) async throws -> [LibraryMatch] {
        guard let query = Self.ftsQuery(text) else { return [] }
        return try await db.read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT book.id, book.title, book.author_names, user_book.shelf,
                        snippet(library_fts, -1, ?, ?, '…', 16) AS passage, book.cover_path
                    FROM library_fts
                    JOIN user_book ON user_book.id = library_fts.rowid
                    JOIN book ON book.id = user_book.book_id
                    WHERE library_fts MATCH ? AND user_book.user_id = ?
                    ORDER BY library_fts.rank LIMIT ?
                    """)
            return try Row.fetchAll(statement, arguments: [Self.matchStart, Self.matchEnd, query, userID, Self.limit])
                .map {
                    LibraryMatch(
                        bookID: $0[0], title: $0[1], authors: $0[2], shelf: Shelf(rawValue: $0[3]) ?? .wantToRead,
                        snippet: $0[4], coverPath: $0[5])
                }
        }
    }

    /// BM25 keyword scores (higher is better) of `userID`'s books that have every word of `text` (the last as a
    /// prefix), title and authors weighing more than the description and review; at most 500. Books with only some
    /// of the words get none: in a hybrid ranking, a question's common words ("about", "world") matching here and
    /// there only add noise to what its meaning finds (measured in MeaningSearchTests).
    func libraryScores(of userID: Int64, matching text: String) async throws -> [Int64: Double] {
        guard let query = Self.ftsQuery(text) else { return [:] }
        return try await db.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_book.book_id, -bm25(library_fts, 4.0, 3.0, 1.0, 1.0) AS score
                    FROM library_fts
                    JOIN user_book ON user_book.id = library_fts.rowid
                    WHERE library_fts MATCH ? AND user_book.user_id = ?
                    ORDER BY score DESC LIMIT 500
                    """, arguments: [query, userID])
            return Dictionary(rows.map { ($0[0], max(0, $0[1] as Double)) }, uniquingKeysWith: max)
        }
    }

    /// The user's books `ids` as search results, each with the start of its description as the passage.
    func libraryEntries(of userID: Int64, ids: [Int64]) async throws -> [Int64: LibraryMatch] {
        guard !ids.isEmpty else { return [:] }
        return try await db.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.title, book.author_names, user_book.shelf, COALESCE(book.description, ''),
                        book.cover_path
                    FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND user_book.book_id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                    """, arguments: StatementArguments([userID] + ids))
            return Dictionary(
                rows.map { row in
                    let match = LibraryMatch(
                        bookID: row[0], title: row[1], authors: row[2], shelf: Shelf(rawValue: row[3]) ?? .wantToRead,
                        snippet: Self.opening(row[4]), coverPath: row[5])
                    return (match.bookID, match)
                }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The first words of a description, cut at a word near 160 characters.
    static func opening(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flat.count > 160 else { return flat }
        let cut = flat.prefix(160)
        return (cut.lastIndex(of: " ").map { String(cut[..<$0]) } ?? String(cut)) + "…"
    }

    /// Replaces the text of the user's photo with what they typed (the reader never overwrites it again); false
    /// when it is not their photo.
    func setText(_ text: String?, ofPhoto id: Int64, userID: Int64) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE photo SET ocr_text = ?, ocr_status = 'edited'
                    WHERE id = ? AND user_id = ? AND book_id IS NOT NULL
                    """, arguments: [text, id, userID])
            return db.changesCount > 0
        }
    }

    /// A snippet as HTML: everything escaped, the matched words in `<mark>`.
    static func highlighted(_ snippet: String) -> HTMLFragment {
        var html = HTMLFragment()
        var rest = Substring(snippet)
        while let start = rest.range(of: matchStart) {
            html += "\(String(rest[..<start.lowerBound]))"
            rest = rest[start.upperBound...]
            guard let end = rest.range(of: matchEnd) else { break }
            html += "<mark>\(String(rest[..<end.lowerBound]))</mark>"
            rest = rest[end.upperBound...]
        }
        html += "\(String(rest).replacingOccurrences(of: matchEnd, with: ""))"
        return html
    }
}
