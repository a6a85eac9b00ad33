import Foundation

/// The cells film and TV exports have that book exports do not: a release year, half stars, a 1–10 rating, an IMDb
/// id and title type, a Letterboxd link. Every cell is untrusted text (DESIGN §13).
enum ScreenImportValues {
    /// A release year from 1870 (the first films) to 2200; nil when the cell is empty, a problem when it holds
    /// something else (a year of 20,000 would sort and search wrongly forever).
    static func year(_ raw: String?) -> Result<Int?, ImportProblem> {
        guard let text = ImportValues.cell(raw) else { return .success(nil) }
        guard text.utf8.count == 4, let year = BoundedNumber.parse(text, in: 1870...2200) else {
            return .failure(
                ImportProblem("The year \(text.prefix(12)) is not a year. Type it as four digits, or leave it empty."))
        }
        return .success(Int(year))
    }

    /// Letterboxd's 0.5–5 in half steps, kept exactly; anything else is noted and left out.
    static func halfStars(_ raw: String?, notes: inout [String]) -> Double? {
        guard let text = ImportValues.cell(raw) else { return nil }
        guard let value = ImportValues.decimal(text), value >= 0.5, value <= 5, (value * 2).rounded() == value * 2
        else {
            notes.append("The rating \(text.prefix(12)) is not between ½ and 5 stars in half stars and was left out.")
            return nil
        }
        return value
    }

    /// IMDb's and Trakt's 1–10 as half stars: 7 is 3½, exactly.
    static func tenPoint(_ raw: String?, notes: inout [String]) -> Double? {
        guard let text = ImportValues.cell(raw) else { return nil }
        guard text.utf8.count <= 2, let value = BoundedNumber.parse(text, in: 1...10) else {
            notes.append("The rating \(text.prefix(12)) is not a whole number from 1 to 10 and was left out.")
            return nil
        }
        return Double(value) / 2
    }

    /// A Letterboxd link (`https://boxd.it/gqMw`, `https://letterboxd.com/film/alien/`) as written; nil for
    /// anything else, which is never kept as an id.
    static func letterboxdURI(_ raw: String?) -> String? {
        guard let text = ImportValues.cell(raw), text.utf8.count <= 200,
            text.hasPrefix("https://boxd.it/") || text.hasPrefix("https://letterboxd.com/"),
            text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "\"" && $0 != "<" })
        else { return nil }
        return text
    }

    /// An IMDb title id (`tt0111161`); nil for anything else.
    static func imdbID(_ raw: String?) -> String? {
        guard let text = ImportValues.cell(raw) else { return nil }
        return ScreenIDs.imdbID(text)
    }

    /// Letterboxd's tags, comma-separated in one cell, as list names (at most twenty, each one line).
    static func tags(_ raw: String?) -> [String] {
        guard let text = ImportValues.cell(raw) else { return [] }
        var seen = Set<String>()
        return text.split(separator: ",").compactMap { ImportValues.line(String($0)) }
            .filter { $0.count <= 100 && seen.insert($0.lowercased()).inserted }
            .prefix(20).map { $0 }
    }

    /// A running time in minutes, within the catalog's bounds; nil otherwise.
    static func minutes(_ raw: String?) -> Int? {
        guard let text = ImportValues.cell(raw), text.utf8.count <= 5,
            let minutes = BoundedNumber.parse(text, in: 1...60_000)
        else { return nil }
        return Int(minutes)
    }

    /// What an IMDb `Title Type` is, in any of the languages IMDb exports in: "movie", "Movie", "Film", "Serie TV",
    /// "Mini serie TV", "Episodio TV", "tvMiniSeries", "Fernsehserie", "Película", "Série", "Videogioco" ….
    enum IMDbType: Equatable {
        case title(TitleKind)
        case episode
        /// A video game, podcast or music video: not something Shelfed keeps.
        case other
    }

    static func imdbType(_ raw: String?) -> IMDbType? {
        guard let text = ImportValues.line(raw) else { return nil }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .filter { $0.isLetter }
        // Episodes first ("Episodio TV", "tvEpisode", "Folge"), then games and audio, then series of every kind.
        if ["episode", "episodio", "folge"].contains(where: folded.contains) { return .episode }
        if ["game", "gioco", "juego", "spiel", "jeu", "jogo", "podcast", "musicvideo", "videomusical", "musikvideo"]
            .contains(where: folded.contains)
        {
            return .other
        }
        if ["serie", "series", "miniserie"].contains(where: folded.contains) { return .title(.show) }
        return .title(.movie)
    }
}

extension ImportedBook {
    /// Reads a watching history's `Year` cell into the title's year and its catalog date (four digits); the problem
    /// when the cell is not a year, for the row's message.
    mutating func takeYear(_ cell: String?) -> ImportProblem? {
        switch ScreenImportValues.year(cell) {
        case .success(let year):
            self.year = year
            publishedDate = year.map { String(format: "%04d", $0) }
            return nil
        case .failure(let problem):
            return problem
        }
    }
}
