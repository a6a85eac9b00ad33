import Foundation

/// The trackers whose exports Shelfed reads, recognised by their header names, never by column positions
/// (Goodreads alone has written 31, 24 and 23 columns).
enum ImportFormat: String, Codable, Sendable, CaseIterable {
    case goodreads, storygraph, librarything, openreads, bookwyrm
    /// Any other CSV, read through the column mapping the person chose.
    case mapped
    /// ISBNs the phone app sent to `POST /api/batch-enrich`; never read from a file.
    case barcodes

    var displayName: String {
        switch self {
        case .goodreads: "Goodreads"
        case .storygraph: "StoryGraph"
        case .librarything: "LibraryThing"
        case .openreads: "Openreads"
        case .bookwyrm: "BookWyrm"
        case .mapped: "CSV with your column choices"
        case .barcodes: "Barcodes from the phone app"
        }
    }

    /// The format whose required headers are all present; nil when none fits (then the person maps columns).
    /// Shelfed's own export is the Goodreads format.
    static func detect(headers: [String]) -> ImportFormat? {
        let names = Set(headers.map(ImportRecord.key))
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
        case .mapped, .barcodes: MappedRows(mapping: mapping ?? ColumnMapping())
        }
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
