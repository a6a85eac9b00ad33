import Foundation
import GRDB

/// One import of one file by one user: staged row by row at upload, previewed, then run in the background.
struct ImportJob: Codable, Sendable, FetchableRecord, PersistableRecord {
    enum Status: String, Codable, Sendable {
        /// The upload's rows are being read; a job left here by a crash is marked failed at the next start.
        case staging
        /// Waiting for the person to choose which column holds what (a CSV of no known tracker).
        case mapping
        /// Rows staged; waiting for the person to confirm the preview.
        case preview
        /// Confirmed; the runner has not reached it yet. The API's names from here on (DESIGN §6).
        case initialized
        case processing, completed, failed, canceled

        var isFinished: Bool { self == .completed || self == .failed || self == .canceled }
        var isRunning: Bool { self == .initialized || self == .processing }
    }

    /// What to do with a row whose book the person already has.
    enum Existing: String, Codable, Sendable {
        /// Fill in what is missing and take a newer shelf or date; never overwrite newer local data.
        case update
        /// Leave the book as it is.
        case skip
    }

    var id: String
    var userId: Int64
    var format: ImportFormat
    var fileName: String
    var status: Status
    var existing: Existing = .update
    /// Where each custom exclusive shelf of the old tracker goes (`did-not-finish` → want_to_read, …).
    var shelfMapping: [String: Shelf] = [:]
    var columnMapping: ColumnMapping?
    var headers: [String] = []
    /// How each column's `3/4/2022`-style dates read (by `ImportRecord.key`): settled by the file, or by the person.
    var dateOrders: [String: SlashDateOrder] = [:]
    /// Columns whose slash dates could be read either way, each with an example, until the person says which.
    var ambiguousDates: [String: String] = [:]
    /// What the preview shows, counted while the rows were staged.
    var summary: ImportSummary?
    /// SHA-256 of the token the API returned with the job, which may cancel it (DESIGN §6).
    var authTokenSha256: String?
    var total = 0
    var processed = 0
    var created = 0
    var updated = 0
    var skipped = 0
    var failed = 0
    var message: String?
    var createdAt: Date
    var startedAt: Date?
    var finishedAt: Date?

    static let databaseTableName = "import_job"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    /// 0 to 1, for the progress bar and the API's `progress`.
    var progress: Double { total == 0 ? (status.isFinished ? 1 : 0) : Double(processed) / Double(total) }
    var percent: Int { Int((progress * 100).rounded(.down)) }

    /// A new job id: 128 random bits as 32 hex digits, never sequential.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `text` could be a job id; anything else is answered 404 before a query is made.
    static func isWellFormedID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// One line of the file: its cells as they were, the book read from them, and what the import did with it.
struct ImportRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    enum Outcome: String, Codable, Sendable {
        case pending, created, updated, skipped, failed
    }

    var jobId: String
    var row: Int
    /// The cells in the job's header order.
    var raw: [String]
    var book: ImportedBook?
    var outcome: Outcome
    var message: String?
    var userBookId: Int64?

    static let databaseTableName = "import_row"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    /// Written by hand: GRDB's generic path made a JSON encoder per column of every row, a quarter of the time an
    /// upload of 5,000 rows took. The cells go through the byte writer; the book through one shared encoder.
    func encode(to container: inout PersistenceContainer) throws {
        container["job_id"] = jobId
        container["row"] = row
        var cells = JSONWriter(reservingCapacity: 512)
        cells.array { array in for value in raw { array.string(value) } }
        container["raw"] = String(decoding: cells.bytes, as: UTF8.self)
        container["book"] = try book.map { String(decoding: try Self.encoder.encode($0), as: UTF8.self) }
        container["outcome"] = outcome.rawValue
        container["message"] = message
        container["user_book_id"] = userBookId
    }

    private static let encoder = JSONEncoder()
}

/// The preview's counts, taken while staging so the preview never decodes every row again.
struct ImportSummary: Codable, Sendable, Equatable {
    var books = 0
    var problems = 0
    var skipped = 0
    var byShelf: [Shelf: Int] = [:]
    /// The old tracker's own exclusive shelves and how many rows are on each, for the shelf-mapping choice.
    var customShelves: [String: Int] = [:]
    var withoutReadDate = 0
    var rated = 0
    var reviewed = 0
    /// Of `books`, how many are films and how many shows (optional: summaries kept before issue 38 have neither).
    var films: Int? = nil
    var shows: Int? = nil
    /// For films and shows, how many titles the rows are about: Letterboxd's files say several things of each film
    /// (`books` counts rows, and the job's total with it). The shelf and other counts are then per title.
    var titles: Int? = nil

    /// "film", "films": what the rows are, for the preview's sentences.
    var nouns: (one: String, many: String) {
        switch (films ?? 0, shows ?? 0) {
        case (0, 0): ("book", "books")
        case (_, 0): ("film", "films")
        case (0, _): ("TV show", "TV shows")
        default: ("title", "titles")
        }
    }

    /// The counts per title rather than per row, from what every row said of each film or show.
    mutating func count(_ tally: ScreenTally) {
        guard !tally.titles.isEmpty else { return }
        let all = tally.titles.values
        func total(_ included: (ScreenTally.Title) -> Bool) -> Int {
            all.filter(included).reduce(0) { $0 + $1.count }
        }
        titles = total { _ in true }
        films = total { $0.kind == .movie }
        shows = total { $0.kind == .show }
        byShelf = [:]
        for title in all { byShelf[title.shelf, default: 0] += title.count }
        withoutReadDate = total { $0.shelf == .read && !$0.dated }
        rated = total(\.rated)
        reviewed = total(\.reviewed)
    }

    mutating func count(_ book: ImportedBook) {
        books += 1
        switch book.screenKind {
        case .movie?: films = (films ?? 0) + 1
        case .show?: shows = (shows ?? 0) + 1
        default: break
        }
        switch book.shelf {
        case .known(let shelf): byShelf[shelf, default: 0] += 1
        case .custom(let name): customShelves[name, default: 0] += 1
        }
        if book.shelf == .known(.read), book.readThroughs.allSatisfy({ $0.finishedOn == nil }),
            (book.viewings ?? []).allSatisfy({ $0.day == nil })
        {
            withoutReadDate += 1
        }
        if book.rating != nil { rated += 1 }
        if book.review != nil { reviewed += 1 }
    }
}

extension ImportRow {
    /// Keeps what reading the row gave — its book, or why it failed or was left out — and counts it for the preview.
    mutating func take(_ reading: ImportRowReading, counting summary: inout ImportSummary) {
        switch reading {
        case .book(let book):
            self.book = book
            summary.count(book)
        case .problem(let message):
            outcome = .failed
            self.message = message
            summary.problems += 1
        case .skipped(let reason):
            outcome = .skipped
            self.message = reason
            summary.skipped += 1
        }
    }
}

/// What the rows of a film and TV export say of each title, gathered while they are read, for the preview: a film on
/// three rows (watched, diary, rating) is one film, on the furthest shelf any row puts it.
struct ScreenTally {
    struct Title {
        var kind: TitleKind
        var shelf: Shelf
        var dated = false
        var rated = false
        var reviewed = false
        /// The Letterboxd film links seen for this title and year: two links are two films.
        var links: Set<String> = []
        var count: Int { max(1, links.count) }
    }

    private(set) var titles: [String: Title] = [:]

    mutating func take(_ reading: ImportRowReading) {
        guard case .book(let item) = reading, let kind = item.screenKind, case .known(let shelf) = item.shelf else {
            return
        }
        let key = [kind.rawValue, LibraryMatch.fold(item.title), item.year.map(String.init) ?? ""]
            .joined(separator: "|")
        var title = titles[key] ?? Title(kind: kind, shelf: shelf)
        if ImportApplier.progress(of: shelf) > ImportApplier.progress(of: title.shelf) { title.shelf = shelf }
        title.dated = title.dated || (item.viewings ?? []).contains { $0.day != nil } || item.episodes != nil
        title.rated = title.rated || item.rating != nil
        title.reviewed = title.reviewed || item.review != nil
        if let link = item.externalIDs["letterboxd"] { title.links.insert(link) }
        titles[key] = title
    }
}
