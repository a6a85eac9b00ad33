/// What a catalog row is: a book, a film or a TV show (DESIGN §17). All three live in the `book` table and go
/// through the same shelves, favourites, ratings, photos and lists; only the words a person reads, and the few
/// things that make sense for one kind alone (pages, episodes), differ. A row's kind never changes once written
/// (a trigger refuses it), so counts and contracts that depend on it cannot drift.
public enum TitleKind: String, Codable, Sendable, CaseIterable {
    case book
    case movie
    case show

    /// The noun in a sentence: "Add a film by hand". English only: an import's stored messages use it; a page says
    /// each kind's sentence whole, through `localized`.
    var noun: String {
        switch self {
        case .book: "book"
        case .movie: "film"
        case .show: "TV show"
        }
    }

    /// "Books", "Films", "TV shows": a filter's label, in the request's language.
    var plural: String {
        switch self {
        case .book: localized("Books")
        case .movie: localized("Films")
        case .show: localized("TV shows")
        }
    }

    /// The label for the people who made it, on the forms and the title's page.
    var creatorsLabel: String {
        switch self {
        case .book: localized("Authors")
        case .movie: localized("Directed by")
        case .show: localized("Created by")
        }
    }

    /// Whether pages and page progress mean anything for it.
    var hasPages: Bool { self == .book }

    /// The label of the year field on the forms; a book's is a publication date, a screen title's the year it came out.
    var dateLabel: String {
        self == .book ? localized("Published") : localized("Year")
    }
}

extension Shelf {
    /// The shelf's name for a title of `kind`: Want to watch, Watching, Watched and Stopped watching for films and
    /// shows (DESIGN §17).
    func title(for kind: TitleKind) -> String {
        guard kind != .book else { return title }
        switch self {
        case .wantToRead: return localized("Want to watch")
        case .reading: return localized("Watching")
        case .read: return localized("Watched")
        case .didNotFinish: return localized("Stopped watching")
        }
    }
}

extension BookPage {
    /// The names under the title, introduced as the kind needs.
    static func byline(_ book: Book) -> String? {
        guard !book.authors.isEmpty else { return nil }
        let names = book.authors.joined(separator: ", ")
        switch book.kind {
        case .book: return localized("by {{names}}", ["names": names])
        case .movie: return localized("Directed by {{names}}", ["names": names])
        case .show: return localized("Created by {{names}}", ["names": names])
        }
    }

    /// What a screen title is, when it came out and how long it runs, under its title.
    static func kindLine(_ book: Book) -> String? {
        guard book.kind != .book else { return nil }
        let noun = book.kind == .movie ? localized("Film") : localized("TV show")
        let year = book.publishedDate.map { String($0.prefix(4)) }
        // A show's running time is its episodes'.
        let runtime = book.runtimeMinutes.map {
            book.kind == .show ? localized("{{time}} episodes", ["time": runningTime($0)]) : runningTime($0)
        }
        return [noun, year, runtime].compactMap { $0 }.joined(separator: " · ")
    }

    /// "2 h 35 min", "45 min", "3 h".
    static func runningTime(_ minutes: Int) -> String {
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        switch (hours, rest) {
        case (0, _): return "\(rest) min"
        case (_, 0): return "\(hours) h"
        default: return "\(hours) h \(rest) min"
        }
    }
}
