import Foundation

/// IMDb's "Your ratings" and watchlist exports, old and new (the new one adds `Original Title` and quotes every text
/// cell; the old one may be Windows-1252, which `ImportText` reads). `Title Type` is written in the account's
/// language; `Title` may be translated, so `Original Title` is kept too. A rated title was watched; the day it was
/// rated is not the day it was seen, so it becomes the day it was added.
struct IMDbRows: ImportRowReader {
    enum Part: Sendable {
        case ratings, watchlist
    }

    let part: Part

    func read(_ record: ImportRecord) -> ImportRowReading {
        let title: String
        switch self.title(record["Title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        let kind: TitleKind
        switch ScreenImportValues.imdbType(record["Title Type"]) {
        case .title(let found)?:
            kind = found
        case .episode?:
            return .skipped("An episode: Shelfed keeps episodes on their show's page, where you can mark it watched.")
        case .other?:
            return .skipped("Not a film or a TV show (\(ImportValues.line(record["Title Type"]) ?? "")).")
        case nil:
            kind = .movie
        }
        var item = ImportedBook(title: title)
        item.kind = kind
        if let problem = item.takeYear(record["Year"]) { return .problem(problem.message) }
        if let original = ImportValues.line(record["Original Title"]), original != title,
            original.count <= CatalogLimits.title
        {
            item.originalTitle = original
        }
        if let id = ScreenImportValues.imdbID(record["Const"]) { item.externalIDs["imdb"] = id }
        item.authors = ImportValues.names(record["Directors"]).prefix(10).map { $0 }
        item.runtimeMinutes = ScreenImportValues.minutes(record["Runtime (mins)"])
        // In English whatever language the account's IMDb speaks (`ScreenImportValues.imdbGenre`).
        let genres = ImportValues.names(record["Genres"]).filter { $0.count <= 60 }.prefix(10)
            .map(ScreenImportValues.imdbGenre)
        item.genres = genres.isEmpty ? nil : genres
        item.rating = ScreenImportValues.tenPoint(record["Your Rating"], notes: &item.notes)
        switch part {
        case .ratings:
            item.shelf = .known(.read)
            item.takeAddedOn(record["Date Rated"], column: "Date Rated")
        case .watchlist:
            // A title rated while on the watchlist was watched.
            item.shelf = .known(item.rating == nil ? .wantToRead : .read)
            item.takeAddedOn(record["Created"], column: "Created")
        }
        return checkLengths(item)
    }
}
