import Foundation

/// Letterboxd's export: a ZIP of CSV files with the columns `Date, Name, Year, Letterboxd URI` and, by file, a rating,
/// a rewatch flag, tags, the day watched and a review. No file holds a TMDB or IMDb id: a film is its name and year
/// (and, in the files that list films rather than diary entries, its film URI).
///
/// Each file says one thing about its films, and a file read on its own says only that: imported in any order, or
/// all together from the ZIP, the files give the same library (`ImportApplier` merges what each row says).
struct LetterboxdRows: ImportRowReader {
    /// Which file a row comes from, which is what the row means.
    enum Part: String, CaseIterable, Sendable {
        /// `watched.csv`: the films watched, with the day each was marked watched (not the day it was seen).
        case watched
        /// `likes/films.csv`: the films given a heart, which Letterboxd only allows for films watched.
        case likes
        /// `ratings.csv`: each film's rating now.
        case ratings
        /// `watchlist.csv`: the films to watch.
        case watchlist
        /// `diary.csv`: one row per viewing logged, on its `Watched Date`.
        case diary
        /// `reviews.csv`: diary entries with a review.
        case reviews
        /// `lists/*.csv`: a list the person made, its films under lines that name it (`ImportArchive` reads them
        /// apart; each row carries its list's name in the flattened `List` column).
        case list

        /// The part a file in the export is, by its path in the ZIP (`likes/films.csv`, `diary.csv`); nil for the
        /// files Shelfed does not read (profile, comments, and the `deleted/` and `orphaned/` folders, whose entries
        /// the person removed).
        init?(pathInExport path: String) {
            let parts = path.lowercased().split(separator: "/").map(String.init)
            guard let name = parts.last, !parts.contains("deleted"), !parts.contains("orphaned"),
                !parts.contains("..")
            else { return nil }
            let folder = parts.dropLast().last
            switch (folder, name) {
            case ("likes", "films.csv"): self = .likes
            case (_, "watched.csv"): self = .watched
            case (_, "ratings.csv"): self = .ratings
            case (_, "watchlist.csv"): self = .watchlist
            case (_, "diary.csv"): self = .diary
            case (_, "reviews.csv"): self = .reviews
            case ("lists", _) where name.hasSuffix(".csv"): self = .list
            default: return nil
            }
        }

        /// Films first, then the viewings: a viewing of a title shared by two films (two "The Haunted Castle", 1897)
        /// then finds both, and asks, instead of making a third.
        /// Lists come last, each file of them in turn.
        static let readingOrder: [Part] = [.watched, .likes, .ratings, .watchlist, .diary, .reviews]
    }

    /// The part every row is; nil when each row says it in a `File` column (the export ZIP, flattened).
    let part: Part?

    /// The header of the ZIP's files flattened into one table (`ImportArchive`).
    static let flattenedHeaders = [
        "File", "Date", "Name", "Year", "Letterboxd URI", "Rating", "Rewatch", "Tags", "Watched Date", "Review", "List",
    ]

    func read(_ record: ImportRecord) -> ImportRowReading {
        guard let part = part ?? ImportValues.cell(record["File"]).flatMap(Part.init(rawValue:)) else {
            return .problem("The File column says which file of the export the row came from; this one is unknown.")
        }
        let title: String
        switch self.title(record["Name"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var film = ImportedBook(title: title)
        film.kind = .movie
        if let problem = film.takeYear(record["Year"]) { return .problem(problem.message) }
        // Diary and review rows carry the entry's link, not the film's: only a film's URI names the film.
        if [.watched, .likes, .ratings, .watchlist].contains(part),
            let uri = ScreenImportValues.letterboxdURI(record["Letterboxd URI"])
        {
            film.externalIDs["letterboxd"] = uri
        }
        film.rating = ScreenImportValues.halfStars(record["Rating"], notes: &film.notes)
        switch part {
        case .watchlist:
            film.shelf = .known(.wantToRead)
            film.takeAddedOn(record["Date"], column: "Date")
        case .watched:
            film.shelf = .known(.read)
            film.takeAddedOn(record["Date"], column: "Date")
        case .likes:
            film.shelf = .known(.read)
            film.favourite = true
        case .ratings:
            film.shelf = .known(.read)
        case .list:
            // On a list says nothing of watching: a film not in the library waits on Want to watch, one watched stays.
            film.shelf = .known(.wantToRead)
            if let name = ImportValues.line(record["List"]), name.count <= ReadingListStore.maxNameLength {
                film.lists = [name]
            }
        case .diary, .reviews:
            film.shelf = .known(.read)
            switch ImportedBook.day(record["Watched Date"], column: "Watched Date") {
            case .failure(let problem):
                return .problem(problem.message)
            case .success(let day):
                // A review written without a diary entry has no day: it says the film was watched, not when.
                if let day {
                    let rewatch = ImportValues.yesNo(record["Rewatch"]) ?? false
                    film.viewings = [ImportedViewing(day: day, rewatch: rewatch, file: part.rawValue)]
                }
            }
            film.lists = ScreenImportValues.tags(record["Tags"])
            if part == .reviews { film.review = ImportValues.paragraphs(record["Review"]) }
        }
        return checkLengths(film)
    }
}
