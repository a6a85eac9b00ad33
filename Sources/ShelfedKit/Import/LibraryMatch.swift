import Foundation
import GRDB

/// Finds the book a user already has that an imported row describes: ISBN-13, then ISBN-10, then another
/// tracker's id, then the normalised title with the first author. Re-importing a file must find every book again.
///
/// ISBNs are looked up in the database on each row (indexed); ids and titles come from an index of the user's
/// library built when a job starts and kept up to date as it creates books, since SQLite cannot index them
/// cheaply. A book another tab adds by hand in the middle of an import is matched by ISBN only.
struct LibraryMatch: Sendable {
    private var byExternalID: [String: Int64] = [:]
    private var byTitle: [String: Int64] = [:]
    /// Books whose title has no trailing parenthesis, so that "Dune (Dune, #1)" finds a "Dune" added from a search;
    /// "Saga (Vol. 1)" and "Saga (Vol. 2)" stay two books.
    private var byBareTitle: [String: Int64] = [:]
    /// Entries imports made while this index lived, with the job that made each: a later row that finds one is
    /// the same book listed twice (two editions in one file, or the same file imported twice at once).
    private var madeByJob: [Int64: String] = [:]
    /// The user's films and shows, matched by their ids and by title and year (issue 38).
    private(set) var screen = ScreenMatch()

    /// The user's books as the import starts: user_book id by external id and by title key. Films and shows are kept
    /// apart, so a book row never lands on a film of the same title (issue 37).
    init(_ db: Database, userID: Int64) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT user_book.id, book.title, book.authors, book.external_ids, book.kind, book.published_date,
                    book.original_title
                FROM user_book JOIN book ON book.id = user_book.book_id
                WHERE user_book.user_id = ?
                """, arguments: [userID])
        while let row = try rows.next() {
            let entryID: Int64 = row[0]
            let ids = (try? JSONDecoder().decode([String: String].self, from: Data((row[3] as String).utf8))) ?? [:]
            if let kind = TitleKind(rawValue: row[4]), kind != .book {
                let published: String? = row[5]
                screen.remember(
                    entryID, kind: kind, titles: [row[1], row[6]],
                    year: published.flatMap { Int($0.prefix(4)) }, externalIDs: ids)
                continue
            }
            let authors = (try? JSONDecoder().decode([String].self, from: Data((row[2] as String).utf8))) ?? []
            remember(entryID, title: row[1], firstAuthor: authors.first ?? "", externalIDs: ids)
        }
    }

    /// Records a film or show an import has just made (or given new ids), so later rows find it.
    mutating func rememberTitle(_ entryID: Int64, madeBy jobID: String?, _ item: ImportedBook, kind: TitleKind) {
        if let jobID { madeByJob[entryID] = jobID }
        screen.remember(
            entryID, kind: kind, titles: [item.title, item.originalTitle], year: item.year,
            externalIDs: item.externalIDs)
    }

    mutating func remember(_ entryID: Int64, title: String, firstAuthor: String, externalIDs: [String: String]) {
        for (kind, value) in externalIDs { byExternalID[Self.idKey(kind, value), default: entryID] = entryID }
        let key = Self.titleKey(title: title, firstAuthor: firstAuthor)
        byTitle[key, default: entryID] = entryID
        if Self.withoutSeries(title) == nil { byBareTitle[key, default: entryID] = entryID }
    }

    /// Records an entry an import has just made, so later rows merge into it.
    mutating func remember(
        _ entryID: Int64, madeBy jobID: String, title: String, firstAuthor: String,
        externalIDs: [String: String]
    ) {
        madeByJob[entryID] = jobID
        remember(entryID, title: title, firstAuthor: firstAuthor, externalIDs: externalIDs)
    }

    /// The job that made this entry during the imports now running; nil for a book the user had before.
    func job(thatMade entryID: Int64) -> String? {
        madeByJob[entryID]
    }

    /// The user_book id of the user's copy of `book`, or nil when they do not have it.
    func entry(for book: ImportedBook, userID: Int64, _ db: Database) throws -> Int64? {
        let byISBN = """
            SELECT user_book.id FROM book JOIN user_book ON user_book.book_id = book.id AND user_book.user_id = ?
            WHERE book.
            """
        if let isbn13 = book.isbn13,
            let id = try Int64.fetchOne(db, sql: byISBN + "isbn13 = ? LIMIT 1", arguments: [userID, isbn13])
        {
            return id
        }
        if let isbn10 = book.isbn10,
            let id = try Int64.fetchOne(db, sql: byISBN + "isbn10 = ? LIMIT 1", arguments: [userID, isbn10])
        {
            return id
        }
        for (kind, value) in book.externalIDs.sorted(by: { $0.key < $1.key }) {
            if let id = byExternalID[Self.idKey(kind, value)] { return id }
        }
        if let id = byTitle[Self.titleKey(title: book.title, firstAuthor: book.firstAuthor)] { return id }
        guard let bare = Self.withoutSeries(book.title) else { return nil }
        return byBareTitle[Self.titleKey(title: bare, firstAuthor: book.firstAuthor)]
    }

    private static func idKey(_ kind: String, _ value: String) -> String {
        kind.lowercased() + ":" + value.lowercased()
    }

    /// Title and first author without case, accents or punctuation: "The Left Hand of Darkness" by
    /// "Ursula K.  Le Guin" and "the left hand of darkness" by "ursula k le guin" are one book.
    static func titleKey(title: String, firstAuthor: String) -> String {
        fold(title) + "|" + fold(firstAuthor)
    }

    /// The title before a trailing parenthesis such as Goodreads' series "(Dune, #1)"; nil when there is none.
    static func withoutSeries(_ title: String) -> String? {
        guard title.hasSuffix(")"), let open = title.lastIndex(of: "("), open > title.startIndex else { return nil }
        return String(title[..<open])
    }

    static func fold(_ text: String) -> String {
        // Most titles and names are ASCII: lowercase letters and digits kept, the rest dropped, without ICU.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
                default: break
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return String(folded.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}
