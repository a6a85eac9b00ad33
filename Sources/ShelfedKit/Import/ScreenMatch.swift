import Foundation

/// Finds the film or show a user already has that an imported row describes: by an id both know (IMDb's `tt…`,
/// Letterboxd's film link, TMDB's), else by kind, title (or original title) and year. "Halloween" (1978) and
/// "Halloween" (2018) are two films; two films that share title and year ("The Haunted Castle", 1897, twice in one
/// Letterboxd export) are told apart only by their links, and a row with neither is not guessed at.
struct ScreenMatch: Sendable {
    private var byID: [String: Int64] = [:]
    private var byTitle: [String: [Int64]] = [:]
    /// Each entry's Letterboxd film link: a row with another link is another film, whatever its title.
    private var letterboxdLink: [Int64: String] = [:]
    /// Each entry's titles as written: "Rain" and "rain" (2019) are two films on Letterboxd, one key here.
    private var writtenTitles: [Int64: Set<String>] = [:]

    enum Found: Equatable {
        case none
        case one(Int64)
        /// Several of the user's titles fit the row and nothing in it says which.
        case several(Int)
    }

    mutating func remember(
        _ entryID: Int64, kind: TitleKind, titles: [String?], year: Int?, externalIDs: [String: String]
    ) {
        for (name, value) in externalIDs { byID[Self.idKey(kind, name, value), default: entryID] = entryID }
        if let link = externalIDs["letterboxd"] { letterboxdLink[entryID] = link }
        writtenTitles[entryID, default: []].formUnion(titles.compactMap { $0 })
        for title in Set(titles.compactMap { $0 }.map { Self.titleKey(kind, $0, year) }) {
            if byTitle[title]?.contains(entryID) != true { byTitle[title, default: []].append(entryID) }
        }
    }

    func entry(for item: ImportedBook, kind: TitleKind) -> Found {
        for (name, value) in item.externalIDs.sorted(by: { $0.key < $1.key }) {
            if let id = byID[Self.idKey(kind, name, value)] { return .one(id) }
        }
        var candidates: [Int64] = []
        for title in [item.title, item.originalTitle].compactMap({ $0 }) {
            for id in byTitle[Self.titleKey(kind, title, item.year)] ?? [] where !candidates.contains(id) {
                candidates.append(id)
            }
        }
        if let link = item.externalIDs["letterboxd"] {
            candidates.removeAll { letterboxdLink[$0].map { $0 != link } ?? false }
        }
        if candidates.count > 1 {
            // Titles that differ only in case or punctuation are told apart by the one written exactly so.
            let exact = candidates.filter { writtenTitles[$0]?.contains(item.title) == true }
            if exact.count == 1 { candidates = exact }
        }
        switch candidates.count {
        case 0: return .none
        case 1: return .one(candidates[0])
        default: return .several(candidates.count)
        }
    }

    /// With the kind: TMDB numbers its films and its shows apart, so film 1399 is not show 1399.
    private static func idKey(_ kind: TitleKind, _ name: String, _ value: String) -> String {
        // Letterboxd's short links are case-sensitive (`gqMw`), so values are compared as written.
        kind.rawValue + ":" + name.lowercased() + ":" + value
    }

    private static func titleKey(_ kind: TitleKind, _ title: String, _ year: Int?) -> String {
        kind.rawValue + "|" + LibraryMatch.fold(title) + "|" + (year.map(String.init) ?? "")
    }
}
