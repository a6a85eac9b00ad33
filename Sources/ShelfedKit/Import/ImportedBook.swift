import Foundation

/// One row of an export file as Shelfed will store it, whatever tracker wrote it. Kept as JSON in `import_row`
/// between the preview, the job and a repair, so its fields are plain values.
struct ImportedBook: Codable, Sendable, Equatable {
    var title: String
    var authors: [String] = []
    var isbn13: String?
    var isbn10: String?
    /// Identifiers that are not ISBNs: `goodreads`, `storygraph`, `asin`, `librarything`, `openlibrary`, ….
    var externalIDs: [String: String] = [:]
    var shelf: ImportedShelf = .known(.wantToRead)
    /// Non-exclusive shelves and tags, which become lists.
    var lists: [String] = []
    var favourite = false
    /// 0.25 to 5 in quarter steps; nil when the row has none (Goodreads writes 0 for "not rated").
    var rating: Double?
    /// Goodreads' "Average Rating": what its readers thought.
    var community: CommunityRating? = nil
    var review: String?
    var privateNotes: String?
    var owned: Bool?
    var format: String?
    /// Every read the row records, oldest first; a read book with no date has a read-through with no dates.
    var readThroughs: [ReadThrough] = []
    /// When it was added to the old tracker (`yyyy-mm-dd`), nil when unknown.
    var addedOn: String?
    var pageCount: Int?
    var publisher: String?
    var publishedDate: String?
    var description: String?
    /// What the importer had to decide for this row (an empty status read as Want to read, a dropped date, …).
    var notes: [String] = []

    // Films and shows (issue 38). Optional, so rows kept as JSON before they existed still decode; nil `kind` is a
    // book.
    /// `movie` or `show`; nil for a book.
    var kind: TitleKind? = nil
    /// The release year, which tells "Halloween" (1978) from "Halloween" (2007); nil when the row has none.
    var year: Int? = nil
    /// The title in its own language when the export wrote a translated one ("Ainda Estou Aqui").
    var originalTitle: String? = nil
    var runtimeMinutes: Int? = nil
    var genres: [String]? = nil
    /// Each dated (or undated) viewing the row records: one diary entry is one viewing.
    var viewings: [ImportedViewing]? = nil
    /// How many times, at least, the title was watched (Trakt's `plays`), when the days are not all known.
    var plays: Int? = nil
    /// A show's episodes watched, each with the day of every pass through it.
    var episodes: [ImportedEpisode]? = nil

    init(title: String) {
        self.title = title
    }

    var isbn: ISBN? { isbn13.flatMap(ISBN.init) ?? isbn10.flatMap(ISBN.init) }

    /// A film or show; nil for a book.
    var screenKind: TitleKind? { kind == .book ? nil : kind }

    /// The first author, or "" when the row has none.
    var firstAuthor: String { authors.first ?? "" }
}

/// One viewing of a film in an export: the day it was seen (nil when unknown) and whether the tracker said it had
/// been seen before (Letterboxd's `Rewatch`), which is a fact about an earlier viewing, not a row of its own.
struct ImportedViewing: Codable, Sendable, Equatable, Hashable {
    var day: String?
    var rewatch = false
    /// The file of the export it was read from (`diary`, `reviews`): Letterboxd lists a reviewed viewing in both.
    var file: String? = nil
    /// Its place among its file's viewings of the same title on the same day (1 for the first): two diary entries
    /// of one day are two viewings, while the same entry in the diary and the reviews, or imported again, is one.
    var ordinal: Int? = nil

    /// Numbers each file's viewings of one title on one day as the rows are read (`ImportStore.stageRows`).
    struct Numbering {
        private var seen: [String: Int] = [:]

        mutating func number(_ reading: ImportRowReading) -> ImportRowReading {
            guard case .book(var item) = reading, var viewings = item.viewings else { return reading }
            for index in viewings.indices {
                guard let day = viewings[index].day else { continue }
                // Titles as the library matches them: two diary entries of one day under "Tenet: …" and "Tenet - …"
                // land on one film and are its two viewings.
                let title = LibraryMatch.fold(item.title)
                let key = [viewings[index].file ?? "", title, item.year.map(String.init) ?? "", day]
                    .joined(separator: "\u{1F}")
                seen[key, default: 0] += 1
                viewings[index].ordinal = seen[key]
            }
            item.viewings = viewings
            return .book(item)
        }
    }
}

/// One episode of a show in an export, with the day it was watched on each pass (the first day, the first pass).
struct ImportedEpisode: Codable, Sendable, Equatable, Hashable {
    var season: Int
    var number: Int
    var days: [String]
}

/// One reading of a book; either date may be unknown.
struct ReadThrough: Codable, Sendable, Equatable, Hashable {
    var startedOn: String?
    var finishedOn: String?
}

/// Where a row goes: one of Shelfed's shelves, or an exclusive shelf of the old tracker (`did-not-finish`,
/// `waiting`) that the person maps in the preview.
enum ImportedShelf: Codable, Sendable, Equatable, Hashable {
    case known(Shelf)
    case custom(String)
}

/// What reading one row gave: the book, or why it cannot be imported as it stands.
enum ImportRowReading: Sendable, Equatable {
    case book(ImportedBook)
    /// The row cannot be imported as it stands; the person can fix it and try again.
    case problem(String)
    /// The row is deliberately left out (a book deleted in the old tracker), with the reason.
    case skipped(String)
}
