import Foundation

/// The trackers whose exports Shelfed reads, recognised by their header names, never by column positions
/// (Goodreads alone has written 31, 24 and 23 columns).
enum ImportFormat: String, Codable, Sendable, CaseIterable {
    case goodreads, storygraph, librarything, openreads, bookwyrm
    /// Letterboxd's export ZIP, its files flattened into one table with a `File` column (`ImportArchive`).
    case letterboxd
    /// One file of a Letterboxd export on its own.
    case letterboxdWatched, letterboxdWatchlist, letterboxdLikes, letterboxdRatings, letterboxdDiary
    case letterboxdReviews
    /// A CSV in the columns Letterboxd's importer reads (Shelfed's own film export).
    case letterboxdCSV
    case imdbRatings, imdbWatchlist
    /// Trakt's export (a ZIP or its JSON files), gathered into one row per title (`TraktExport`).
    case trakt
    /// Any other CSV, read through the column mapping the person chose.
    case mapped
    /// ISBNs the phone app sent to `POST /api/batch-enrich`; never read from a file.
    case barcodes

    /// The format as a page names it, in the request's language (the services' own names stay as they are).
    var displayName: String {
        switch self {
        case .goodreads: "Goodreads"
        case .storygraph: "StoryGraph"
        case .librarything: "LibraryThing"
        case .openreads: "Openreads"
        case .bookwyrm: "BookWyrm"
        case .letterboxd: "Letterboxd"
        case .letterboxdWatched: localized("Letterboxd (watched films)")
        case .letterboxdWatchlist: localized("Letterboxd (watchlist)")
        case .letterboxdLikes: localized("Letterboxd (liked films)")
        case .letterboxdRatings: localized("Letterboxd (ratings)")
        case .letterboxdDiary: localized("Letterboxd (diary)")
        case .letterboxdReviews: localized("Letterboxd (reviews)")
        case .letterboxdCSV: localized("Letterboxd import CSV")
        case .imdbRatings: localized("IMDb (your ratings)")
        case .imdbWatchlist: localized("IMDb (watchlist)")
        case .trakt: "Trakt"
        case .mapped: localized("CSV with your column choices")
        case .barcodes: localized("Barcodes from the phone app")
        }
    }

    /// Films and shows, whose rows `ImportApplier` matches by title and year rather than by ISBN.
    var isScreen: Bool {
        switch self {
        case .goodreads, .storygraph, .librarything, .openreads, .bookwyrm, .mapped, .barcodes: false
        default: true
        }
    }

    /// The format whose required headers are all present; nil when none fits (then the person maps columns).
    /// Shelfed's own export is the Goodreads format. Letterboxd's watched films, watchlist and likes have the same
    /// four columns: the file's name tells them apart (`watchlist.csv`, `likes/films.csv`, else watched).
    static func detect(headers: [String], fileName: String = "") -> ImportFormat? {
        let names = Set(headers.map(ImportRecord.key))
        if let screen = detectScreen(names, fileName: fileName.lowercased()) { return screen }
        let signatures: [(ImportFormat, [String])] = [
            (.goodreads, ["book id", "title", "author", "exclusive shelf"]),
            (.storygraph, ["title", "authors", "isbn/uid", "read status"]),
            (.librarything, ["book id", "title", "primary author", "collections"]),
            (.openreads, ["title", "author", "status", "readings"]),
            (.bookwyrm, ["title", "author_text", "shelf"]),
        ]
        return signatures.first { _, required in required.allSatisfy(names.contains) }?.0
    }

    /// Reads one row of this format; `mapping` is used by `.mapped` only.
    func reader(mapping: ColumnMapping? = nil) -> any ImportRowReader {
        switch self {
        case .goodreads: GoodreadsRows()
        case .storygraph: StoryGraphRows()
        case .librarything: LibraryThingRows()
        case .openreads: OpenreadsRows()
        case .bookwyrm: BookWyrmRows()
        case .letterboxd: LetterboxdRows(part: nil)
        case .letterboxdWatched: LetterboxdRows(part: .watched)
        case .letterboxdWatchlist: LetterboxdRows(part: .watchlist)
        case .letterboxdLikes: LetterboxdRows(part: .likes)
        case .letterboxdRatings: LetterboxdRows(part: .ratings)
        case .letterboxdDiary: LetterboxdRows(part: .diary)
        case .letterboxdReviews: LetterboxdRows(part: .reviews)
        case .letterboxdCSV: LetterboxdCSVRows()
        case .imdbRatings: IMDbRows(part: .ratings)
        case .imdbWatchlist: IMDbRows(part: .watchlist)
        case .trakt: TraktRows()
        case .mapped, .barcodes: MappedRows(mapping: mapping ?? ColumnMapping())
        }
    }
}

extension ImportFormat {
    /// Letterboxd's files and IMDb's lists, by their headers (and, for Letterboxd's four-column files, the name).
    fileprivate static func detectScreen(_ names: Set<String>, fileName: String) -> ImportFormat? {
        if ["const", "title", "title type", "url"].allSatisfy(names.contains) {
            return names.contains("position") || names.contains("created") ? .imdbWatchlist : .imdbRatings
        }
        if ["title", "watcheddate"].allSatisfy(names.contains) { return .letterboxdCSV }
        if ["file", "kind", "title", "trakt", "episodes"].allSatisfy(names.contains) { return .trakt }
        guard ["date", "name", "year", "letterboxd uri"].allSatisfy(names.contains) else { return nil }
        if names.contains("file") { return .letterboxd }
        if names.contains("review") { return .letterboxdReviews }
        if names.contains("watched date") { return .letterboxdDiary }
        if names.contains("rating") { return .letterboxdRatings }
        if fileName.contains("watchlist") { return .letterboxdWatchlist }
        if fileName.contains("like") || fileName.hasSuffix("films.csv") { return .letterboxdLikes }
        return .letterboxdWatched
    }
}

/// Turns one record of an export into the book Shelfed will store.
protocol ImportRowReader: Sendable {
    func read(_ record: ImportRecord) -> ImportRowReading
}

/// One data row, its cells by header name (compared without case or surrounding space).
struct ImportRecord: Sendable {
    private var cells: [String: String] = [:]

    init(headers: [String], values: [String]) {
        self.init(keys: headers.map(Self.key), values: values)
    }

    /// With the headers' keys made once per file (`key` per cell of 5,000 rows was a fifth of an import's time).
    init(keys: [String], values: [String]) {
        cells.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() where index < values.count {
            if cells[key] == nil { cells[key] = values[index] }
        }
    }

    init(cells: [String: String]) {
        for (header, value) in cells { self.cells[Self.key(header)] = value }
    }

    subscript(_ header: String) -> String? { cells[Self.key(header)] }

    /// Every cell, for keeping the row as it was (failed rows are shown with their original values).
    var all: [String: String] { cells }

    static func key(_ header: String) -> String {
        // The readers look cells up by plain ASCII names: those need no trimming.
        let bytes = header.utf8
        if let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20,
            bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        {
            return header.lowercased()
        }
        return header.trimmingCharacters(in: trimmed).lowercased()
    }

    private static let trimmed = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}"))
}

extension ImportRowReader {
    /// The title every format needs, checked once: present and of a sane length.
    func title(_ raw: String?) -> Result<String, ImportProblem> {
        guard let title = ImportValues.line(raw) else { return .failure(ImportProblem("The row has no title.")) }
        guard title.count <= CatalogLimits.title else {
            return .failure(
                ImportProblem(
                    "The title is longer than \(CatalogLimits.spelled(CatalogLimits.title)) characters. Shorten it and "
                        + "try again."))
        }
        return .success(title)
    }

    /// Review and notes longer than the book page takes fail the row rather than being cut.
    func checkLengths(_ book: ImportedBook) -> ImportRowReading {
        for (name, text) in [("review", book.review), ("private notes", book.privateNotes)] {
            if let text, text.count > CatalogLimits.review {
                return .problem(
                    "The \(name) is longer than \(CatalogLimits.spelled(CatalogLimits.review)) characters. Shorten it "
                        + "and try again.")
            }
        }
        var book = book
        book.authors = book.authors.filter { $0.count <= CatalogLimits.name }
        if let description = book.description, description.count > CatalogLimits.description {
            book.description = nil
            book.notes.append(
                "The description was longer than \(CatalogLimits.spelled(CatalogLimits.description)) characters and "
                    + "was left out.")
        }
        return .book(book)
    }
}

struct ImportProblem: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
