import Foundation
import GRDB

/// Film night (issue 38): who is on the sofa, and what every one of them wants to watch. Only members who share their
/// watching take part (DESIGN §15): another member's name in the link is passed over, never read. A title is on
/// everyone's Want to watch when each person has it there — the same catalog row, or their own row of the same kind,
/// title and year (an import's film and a provider's are one film) — and owned in the house when any of the viewer's
/// or the sharing members' entries for it is an owned copy; one on the house's Jellyfin is as good as owned.
struct FilmNight: Sendable {
    let db: AppDatabase
    /// Evenings already worked out, until a shelf, a title or someone's sharing changes (nil: every page reads).
    var memo: FilmNightMemo? = nil

    /// The most people on one sofa a link may name (a household is a handful; a link of 10,000 ids is refused).
    static let maxPeople = 12

    struct Candidate: Sendable, Equatable {
        let bookID: Int64
        let kind: TitleKind
        let title: String
        let year: String?
        let runtimeMinutes: Int?
        let coverPath: String?
        let ownedInHouse: Bool
        /// On the house's Jellyfin (`JellyfinLibrary`).
        var atHome = false
    }

    struct Evening: Sendable, Equatable {
        /// The people on the sofa besides the viewer, as they will be named.
        var people: [String] = []
        var candidates: [Candidate] = []
        /// Titles everyone wants that were left out because their running time is not known (with `fitsIn`).
        var unknownRuntime = 0
        /// Titles everyone wants that run longer than the time there is.
        var tooLong = 0
    }

    /// What `viewer` and `members` (those of them who share) all have on Want to watch, owned copies first, then by
    /// running time; with `fitsIn`, only titles that run no longer than that many minutes.
    func evening(for viewer: Int64, with members: [Int64], kind: TitleKind?, fitsIn minutes: Int?) async throws
        -> Evening
    {
        let asked = Array(Set(members.filter { $0 != viewer }).prefix(Self.maxPeople)).sorted()
        let key = FilmNightKey(viewer: viewer, members: asked, kind: kind)
        let read = { try await db.read { db in try Self.evening(db, for: viewer, with: asked, kind: kind) } }
        let evening = if let memo { try await memo.answer(for: key, read) } else { try await read() }
        return Self.fitted(evening, in: minutes)
    }

    static func evening(
        _ db: Database, for viewer: Int64, with members: [Int64], kind: TitleKind?, fitsIn minutes: Int?
    ) throws -> Evening {
        fitted(
            try evening(
                db, for: viewer, with: Array(Set(members.filter { $0 != viewer }).prefix(maxPeople)), kind: kind),
            in: minutes)
    }

    /// Only the titles that run no longer than `minutes` (nil: all), with what was left out counted. The order stays.
    static func fitted(_ evening: Evening, in minutes: Int?) -> Evening {
        guard let minutes else { return evening }
        var fitted = evening
        fitted.unknownRuntime = evening.candidates.filter { $0.runtimeMinutes == nil }.count
        fitted.tooLong = evening.candidates.filter { ($0.runtimeMinutes ?? 0) > minutes }.count
        fitted.candidates.removeAll { ($0.runtimeMinutes ?? Int.max) > minutes }
        return fitted
    }

    /// Every title the viewer and `asked` (those of them who share) all want, sorted: owned first, then shortest.
    private static func evening(_ db: Database, for viewer: Int64, with asked: [Int64], kind: TitleKind?) throws
        -> Evening
    {
        var evening = Evening()
        var people: [Int64] = [viewer]
        if !asked.isEmpty {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, display_name FROM user WHERE shares_reading = 1 AND id IN (\(placeholders(asked.count)))
                    ORDER BY display_name COLLATE NOCASE, id
                    """, arguments: StatementArguments(asked))
            people += rows.map { $0["id"] }
            evening.people = rows.map { $0["display_name"] }
        }
        let kinds = kind.map { [$0.rawValue] } ?? [TitleKind.movie.rawValue, TitleKind.show.rawValue]
        let wantedSQL = """
            SELECT book.id, book.kind, book.title, book.published_date, book.runtime_minutes, book.cover_path
            FROM user_book JOIN book ON book.id = user_book.book_id
            WHERE user_book.user_id = ? AND user_book.shelf = 'want_to_read' AND book.kind IN (\(placeholders(kinds.count)))
            """
        let wanted = try db.cachedStatement(sql: wantedSQL)
        // The viewer's wanted titles, keyed as an import matches titles: their own rows are the ones linked.
        var mine: [String: Candidate] = [:]
        var rows = try Row.fetchCursor(wanted, arguments: [viewer] + StatementArguments(kinds))
        while let row = try rows.next() {
            let kind = TitleKind(rawValue: row[1]) ?? .movie
            let title: String = row[2]
            let year = (row[3] as String?).map { String($0.prefix(4)) }
            let key = Self.key(kind.rawValue, title, year)
            if mine[key] == nil {
                mine[key] = Candidate(
                    bookID: row[0], kind: kind, title: title, year: year, runtimeMinutes: row[4], coverPath: row[5],
                    ownedInHouse: false)
            }
        }
        // Each other person narrows them to what they want too; a running time one of them knows fills a gap.
        var runtimes: [String: Int] = [:]
        for person in people.dropFirst() where !mine.isEmpty {
            var theirs = Set<String>()
            rows = try Row.fetchCursor(wanted, arguments: [person] + StatementArguments(kinds))
            while let row = try rows.next() {
                let key = Self.key(row[1], row[2], (row[3] as String?).map { String($0.prefix(4)) })
                guard mine[key] != nil else { continue }
                theirs.insert(key)
                if let runtime: Int = row[4] { runtimes[key] = runtime }
            }
            mine = mine.filter { theirs.contains($0.key) }
        }
        var candidates = mine.map { key, candidate in
            Candidate(
                bookID: candidate.bookID, kind: candidate.kind, title: candidate.title, year: candidate.year,
                runtimeMinutes: candidate.runtimeMinutes ?? runtimes[key], coverPath: candidate.coverPath,
                ownedInHouse: false)
        }
        let owned = try ownedKeys(db, for: viewer, kinds: kinds)
        candidates = candidates.map { candidate in
            let key = Self.key(candidate.kind.rawValue, candidate.title, candidate.year)
            return Candidate(
                bookID: candidate.bookID, kind: candidate.kind, title: candidate.title, year: candidate.year,
                runtimeMinutes: candidate.runtimeMinutes, coverPath: candidate.coverPath,
                ownedInHouse: owned.contains(key))
        }
        // Owned, or on the house's Jellyfin: either way, nobody has to go and find it.
        let atHome = try JellyfinLibrary.held(of: candidates.map(\.bookID), db)
        for index in candidates.indices { candidates[index].atHome = atHome.contains(candidates[index].bookID) }
        // Each title folded once, not once per comparison: sorting 500 titles compared them 9,000 times.
        let sortable = candidates.map { candidate in
            (
                candidate: candidate, owned: candidate.ownedInHouse || candidate.atHome,
                runtime: candidate.runtimeMinutes ?? Int.max,
                title: LibraryMatch.fold(candidate.title)
            )
        }
        evening.candidates = sortable.sorted { left, right in
            if left.owned != right.owned { return left.owned }
            if left.runtime != right.runtime { return left.runtime < right.runtime }
            return (left.title, left.candidate.bookID) < (right.title, right.candidate.bookID)
        }.map(\.candidate)
        return evening
    }

    /// The films and shows owned in the house (the viewer's copies and those of members who share), keyed as above.
    private static func ownedKeys(_ db: Database, for viewer: Int64, kinds: [String]) throws -> Set<String> {
        var keys = Set<String>()
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT book.kind, book.title, book.published_date
                FROM user_book JOIN book ON book.id = user_book.book_id JOIN user ON user.id = user_book.user_id
                WHERE user_book.owned = 1 AND book.kind IN (\(placeholders(kinds.count)))
                    AND (user.id = ? OR user.shares_reading = 1)
                """, arguments: StatementArguments(kinds) + [viewer])
        while let row = try rows.next() {
            let published: String? = row[2]
            keys.insert(key(row[0], row[1], published.map { String($0.prefix(4)) }))
        }
        return keys
    }

    /// Kind, title and year as an import matches them: one film added by two people as two rows is one film.
    private static func key(_ kind: String, _ title: String, _ year: String?) -> String {
        kind + "|" + LibraryMatch.fold(title) + "|" + (year ?? "")
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
    }
}
