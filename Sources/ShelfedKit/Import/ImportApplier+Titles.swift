import Foundation
import GRDB

// Films and shows from Letterboxd and IMDb (issue 38). A row says one thing about a title — watched, on the
// watchlist, liked, rated, reviewed, seen on a day — and each is merged into the title's one entry, so the files of
// one export give the same library in any order, and importing any of them again changes nothing.

extension ImportApplier {
    func applyTitle(_ item: ImportedBook, kind: TitleKind, shelf: Shelf, match: inout LibraryMatch, _ db: Database)
        throws -> Applied
    {
        switch match.screen.entry(for: item, kind: kind) {
        case .several(let count):
            let year = item.year.map { " (\($0))" } ?? ""
            return Applied(
                outcome: .failed, userBookID: nil,
                message: "\(count) \(kind.noun)s in your library are called “\(item.title)”\(year), and this row does "
                    + "not say which one it is about. Open the right one and add what the row says there.")
        case .one(let entryID):
            if match.job(thatMade: entryID) == nil, existing == .skip {
                return Applied(
                    outcome: .skipped, userBookID: entryID, message: "Already in your library; left as it was.")
            }
            let (changed, note) = try updateTitle(entryID: entryID, with: item, kind: kind, shelf: shelf, db)
            if changed { match.rememberTitle(entryID, madeBy: nil, item, kind: kind) }
            return changed
                ? Applied(outcome: .updated, userBookID: entryID, message: note)
                : Applied(
                    outcome: .skipped, userBookID: entryID, message: note ?? "Already in your library with nothing new."
                )
        case .none:
            let entryID = try createTitle(item, kind: kind, shelf: shelf, db)
            match.rememberTitle(entryID, madeBy: jobID, item, kind: kind)
            return Applied(outcome: .created, userBookID: entryID, message: nil)
        }
    }

    /// A catalog row of the user's own with the export's title, year, makers and ids, and their entry for it. A later
    /// lookup fills in the poster and synopsis; until then it is a title with a typographic cover.
    private func createTitle(_ item: ImportedBook, kind: TitleKind, shelf: Shelf, _ db: Database) throws -> Int64 {
        let writer = CatalogWriter(db: db)
        let bookID = try writer.insert(
            CatalogWriter.NewRow(
                title: item.title, authors: item.authors, publishedDate: item.publishedDate,
                categories: item.genres ?? [], source: .import, owner: userID, externalIDs: item.externalIDs,
                kind: kind, runtimeMinutes: item.runtimeMinutes),
            at: nowValue)
        if let original = item.originalTitle {
            try db.cachedStatement(sql: "UPDATE book SET original_title = ? WHERE id = ?")
                .execute(arguments: [original, bookID])
        }
        let entryID = try writer.insert(
            CatalogWriter.NewEntry(
                userID: userID, bookID: bookID, shelf: shelf, favourite: item.favourite, rating: item.rating,
                review: item.review, addedAt: item.addedOn.flatMap(Self.middayValue) ?? nowValue),
            at: nowValue)
        // A film only watched (no day, no count) is its entry as written: one viewing with no day.
        if kind == .movie, shelf == .read, item.viewings?.isEmpty == false || item.plays != nil {
            var entry = TitleEntry(bookID: bookID, shelf: shelf, favourite: item.favourite, rating: item.rating)
            entry.review = item.review
            if try ImportedFilmViewings.merge(
                item.viewings ?? [], atLeast: item.plays, shelf: shelf, latest: &entry.latest, entryID: entryID, db)
            {
                try save(entry, entryID: entryID, db)
            }
        }
        if kind == .show, let episodes = item.episodes {
            _ = try ImportedShowWatches.merge(episodes, bookID: bookID, userID: userID, db)
        }
        try addToLists(item.lists, entryID: entryID, db)
        return entryID
    }

    /// Fills what the entry lacks, moves it forward (watched beats want to watch, never the other way) and adds
    /// the viewings it does not have yet; true when anything changed.
    private func updateTitle(entryID: Int64, with item: ImportedBook, kind: TitleKind, shelf: Shelf, _ db: Database)
        throws -> (changed: Bool, note: String?)
    {
        guard var entry = try TitleEntry.fetch(entryID, db) else { return (false, nil) }
        let before = entry
        if entry.rating == nil, let rating = item.rating { entry.rating = rating }
        if (entry.review ?? "").isEmpty, let review = item.review { entry.review = review }
        if !entry.favourite, item.favourite { entry.favourite = true }
        if Self.progress(of: shelf) > Self.progress(of: entry.shelf) {
            entry.shelf = shelf
            if shelf == .read { entry.stoppedAt = nil }
        }
        var changed = false
        var note: String?
        if kind == .movie,
            try ImportedFilmViewings.merge(
                item.viewings ?? [], atLeast: item.plays, shelf: entry.shelf, latest: &entry.latest, entryID: entryID,
                db)
        {
            changed = true
        }
        if kind == .show, let episodes = item.episodes {
            let outcome = try ImportedShowWatches.merge(episodes, bookID: entry.bookID, userID: userID, db)
            changed = changed || outcome.changed
            if outcome.leftOut > 0 {
                note =
                    "\(outcome.leftOut) of its episodes are not in this show's episode list and were left out: mark them "
                    + "on its page once they appear there."
            }
        }
        if changed || entry != before {
            try save(entry, entryID: entryID, db)
            changed = true
        }
        if try fillOwnCatalogRow(of: entry.bookID, with: item, db) { changed = true }
        if try addToLists(item.lists, entryID: entryID, db) { changed = true }
        return (changed, note)
    }

    /// Writes the fields an import changes, and the time it did (a whole record's update formats every date again).
    private func save(_ entry: TitleEntry, entryID: Int64, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE user_book SET shelf = ?, favourite = ?, rating = ?, review = ?, started_at = ?, finished_at = ?,
                    stopped_at = ?, updated_at = ?
                WHERE id = ?
                """
        ).execute(arguments: [
            entry.shelf.rawValue, entry.favourite, entry.rating, entry.review, entry.latest.startedOn,
            entry.latest.finishedOn, entry.stoppedAt, nowValue, entryID,
        ])
    }

    /// The ids, year and original title a row knows and the user's own catalog row lacks. A row the household shares
    /// (from TMDB) is never written by one person's import.
    private func fillOwnCatalogRow(of bookID: Int64, with item: ImportedBook, _ db: Database) throws -> Bool {
        guard !item.externalIDs.isEmpty || item.publishedDate != nil || item.originalTitle != nil,
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT external_ids, published_date IS NULL, original_title IS NULL FROM book
                        WHERE id = ? AND owner_user_id = ?
                        """), arguments: [bookID, userID])
        else { return false }
        var ids: [String: String] = [:]
        var newIDs = false
        if !item.externalIDs.isEmpty {
            let known = (try? JSONDecoder().decode([String: String].self, from: Data((row[0] as String).utf8))) ?? [:]
            ids = known.merging(item.externalIDs) { kept, _ in kept }
            newIDs = ids != known
        }
        let fillsYear: Bool = row[1] && item.publishedDate != nil
        let fillsOriginal: Bool = row[2] && item.originalTitle != nil
        guard newIDs || fillsYear || fillsOriginal else { return false }
        try db.execute(
            sql: """
                UPDATE book SET external_ids = CASE WHEN ? THEN ? ELSE external_ids END,
                    published_date = COALESCE(published_date, ?), original_title = COALESCE(original_title, ?),
                    updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                newIDs, CatalogWriter.jsonObject(ids), item.publishedDate, item.originalTitle, nowValue, bookID,
            ])
        return true
    }
}

/// The fields of a shelf entry an import of films and shows reads and writes.
struct TitleEntry: Equatable {
    var bookID: Int64
    var shelf: Shelf
    var favourite: Bool
    var rating: Double?
    var review: String?
    /// The latest viewing (for a film) or pass: its start and finish days.
    var latest = ReadThrough(startedOn: nil, finishedOn: nil)
    var stoppedAt: String?

    init(bookID: Int64, shelf: Shelf, favourite: Bool, rating: Double?) {
        self.bookID = bookID
        self.shelf = shelf
        self.favourite = favourite
        self.rating = rating
    }

    static func fetch(_ entryID: Int64, _ db: Database) throws -> TitleEntry? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT book_id, shelf, favourite, rating, review, started_at, finished_at, stopped_at
                        FROM user_book WHERE id = ?
                        """), arguments: [entryID])
        else { return nil }
        var entry = TitleEntry(
            bookID: row[0], shelf: Shelf(rawValue: row[1]) ?? .wantToRead, favourite: row[2], rating: row[3])
        entry.review = row[4]
        entry.latest = ReadThrough(startedOn: row[5], finishedOn: row[6])
        entry.stoppedAt = row[7]
        return entry
    }
}

/// A film's viewings as an export describes them, merged into the ones the person has (DESIGN §17: the latest on the
/// entry, the earlier ones in `read_through`). Viewings are events: two diary entries of one day are two viewings
/// (numbered by `ImportedViewing.Numbering`), and a day already recorded as often as the export lists it adds
/// nothing, so importing again, or the reviews after the diary, adds nothing.
/// A viewing without a day stands for "watched, date unknown": a diary that says the first viewing was on a day (no
/// `Rewatch`) replaces it, and one whose earliest viewing is a rewatch, alone on its day, needs one (Letterboxd never
/// writes a diary row for the viewing before it, so rows are never counted to find rewatches).
enum ImportedFilmViewings {
    private struct Viewing: Equatable {
        var started: String?
        var finished: String?
        var isUndated: Bool { started == nil && finished == nil }
    }

    /// True when the viewings changed; `latest` then holds the latest, which the caller saves on the entry.
    /// `atLeast`: how many viewings the export counted in all (Trakt's `plays`), the ones without a day added undated.
    static func merge(
        _ imported: [ImportedViewing], atLeast plays: Int? = nil, shelf: Shelf, latest entry: inout ReadThrough,
        entryID: Int64, _ db: Database
    ) throws -> Bool {
        guard shelf == .read else { return false }
        let kept = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT started_at, finished_at FROM read_through WHERE user_book_id = ? ORDER BY id"),
            arguments: [entryID]
        ).map { Viewing(started: $0[0], finished: $0[1]) }
        let before = [Viewing(started: entry.startedOn, finished: entry.finishedOn)] + kept
        var all = before
        // How many viewings each day needs: the highest ordinal the export gave it (a row read without one counts
        // its own viewings of the day).
        var listed: [String: Int] = [:]
        var inRow: [String: Int] = [:]
        for viewing in imported {
            guard let day = viewing.day else { continue }
            inRow[day, default: 0] += 1
            listed[day] = max(listed[day] ?? 0, viewing.ordinal ?? inRow[day] ?? 1)
        }
        for (day, count) in listed.sorted(by: { $0.key < $1.key }) {
            let have = all.filter { $0.finished == day }.count
            for _ in 0..<max(0, count - have) { all.append(Viewing(started: nil, finished: day)) }
        }
        let earliest = all.compactMap(\.finished).min()
        if let earliest, imported.contains(where: { $0.day == earliest && !$0.rewatch }) {
            all.removeAll { $0.isUndated }
        } else if let rewatch = imported.filter(\.rewatch).compactMap(\.day).min(), rewatch == earliest,
            all.filter({ $0.finished == rewatch }).count == 1, !all.contains(where: \.isUndated)
        {
            // Seen before, and no viewing recorded before it (not even another of that day): one with no day.
            all.append(Viewing(started: nil, finished: nil))
        }
        while all.count < min(plays ?? 0, TraktExport.playsLimit) { all.append(Viewing(started: nil, finished: nil)) }
        func sorted(_ viewings: [Viewing]) -> [String] {
            viewings.map { ($0.finished ?? "-") + "|" + ($0.started ?? "-") }.sorted()
        }
        guard sorted(all) != sorted(before) else { return false }
        // The latest dated viewing lives on the entry; with none dated, an undated one does.
        guard
            let latestIndex = all.indices.filter({ all[$0].finished != nil })
                .max(by: { (all[$0].finished ?? "") < (all[$1].finished ?? "") }) ?? all.indices.first
        else { return false }
        let latest = all.remove(at: latestIndex)
        entry = ReadThrough(startedOn: latest.started, finishedOn: latest.finished)
        try db.cachedStatement(sql: "DELETE FROM read_through WHERE user_book_id = ?").execute(arguments: [entryID])
        for viewing in all {
            try ReadHistory.keepViewing(
                ReadThrough(startedOn: viewing.started, finishedOn: viewing.finished), of: entryID, db)
        }
        return true
    }
}
