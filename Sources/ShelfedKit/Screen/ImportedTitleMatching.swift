import Foundation
import GRDB

/// Matches the films and shows an import wrote as the person's own rows (a Letterboxd export names a film by title and
/// year only) to a provider's title, and fills the row with its details: poster, synopsis, makers, cast, genres,
/// running time, and a show's episodes (issue 38). An id the export carries (TMDB's, or IMDb's through TMDB's find,
/// Wikidata or TVmaze) is the title; without one, a search by title must give exactly one title of that kind, name
/// and year. Several that fit, or a row without a year, are never guessed at: the person chooses (`review`).
struct ImportedTitleMatching: Sendable {
    let db: AppDatabase
    let titles: TitleSearchService
    let covers: CoverStore

    /// At most this many titles are offered to choose from.
    static let candidateLimit = 5

    /// An imported row still to match.
    struct Due: Sendable, Equatable {
        let bookID: Int64
        let kind: TitleKind
        let title: String
        let originalTitle: String?
        let year: Int?
        let ids: [String: String]
    }

    /// A title the person may choose for their row.
    struct Candidate: Sendable, Equatable {
        let source: ScreenSource
        let providerID: String
        let title: String
        let year: Int?
        let makers: String
    }

    enum Finding: Sendable, Equatable {
        case one(ScreenTitle)
        case several([Candidate])
        case none
    }

    /// The imported film or show looked at longest ago among those due: never looked up, or waiting since a
    /// provider did not answer six hours ago.
    func nextDue(now: Date) async throws -> Due? {
        try await db.read { db in
            // After the owner's import, never during it: a row still being written (the diary after the watched list)
            // is looked up once it is whole. Another person's import, or a batch of scanned barcodes, holds nothing up.
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT id, kind, title, original_title, published_date, external_ids FROM book
                            WHERE source = 'import' AND kind IN ('movie', 'show') AND provider_key IS NULL
                                AND (title_match IS NULL OR title_match IN ('waiting', 'none'))
                                AND (title_match IS NULL OR (title_match = 'waiting' AND title_match_checked_at < ?)
                                    OR (title_match = 'none' AND title_match_checked_at < ?))
                                AND NOT EXISTS (
                                    SELECT 1 FROM import_job WHERE import_job.user_id = book.owner_user_id
                                        AND import_job.status IN ('initialized', 'processing')
                                        AND import_job.format != 'barcodes')
                            ORDER BY title_match IS NOT NULL, title_match_checked_at, id LIMIT 1
                            """),
                    arguments: [
                        now.addingTimeInterval(-ImportedTitleMatchWorker.retryAfter),
                        now.addingTimeInterval(-ImportedTitleMatchWorker.askAgainAfter),
                    ])
            else { return nil }
            let published: String? = row["published_date"]
            let ids = (row["external_ids"] as String?).flatMap {
                try? JSONDecoder().decode([String: String].self, from: Data($0.utf8))
            }
            return Due(
                bookID: row["id"], kind: TitleKind(rawValue: row["kind"]) ?? .movie, title: row["title"],
                originalTitle: row["original_title"], year: Self.year(of: published), ids: ids ?? [:])
        }
    }

    /// The year of a catalog row's `published_date` ("2021" or "2021-09-15").
    static func year(of published: String?) -> Int? {
        published.flatMap { Int($0.prefix(4)) }
    }

    /// What the providers say the row is. Throws `UpstreamFailure` when none could be asked.
    func find(_ due: Due) async throws -> Finding {
        if let title = try await byID(due) { return .one(title) }
        var candidates: [Candidate] = []
        let wanted = Set([due.title, due.originalTitle].compactMap { $0 }.map(LibraryMatch.fold))
        for query in [due.title, due.originalTitle].compactMap({ $0 }) where candidates.isEmpty {
            let answer = try await titles.search(query, kind: due.kind, within: .seconds(20))
            for result in answer.results where result.kind == due.kind {
                let names = [result.title, result.originalTitle].compactMap { $0 }.map(LibraryMatch.fold)
                guard names.contains(where: wanted.contains), due.year == nil || result.year == due.year,
                    let id = result.providerID, !candidates.contains(where: { $0.providerID == id })
                else { continue }
                candidates.append(
                    Candidate(
                        source: result.source, providerID: id, title: result.title, year: result.year,
                        makers: result.creators.prefix(2).joined(separator: ", ")))
            }
        }
        switch candidates.count {
        case 0: return .none
        // Without a year, one title of that name may still be another film: the person says.
        case 1 where due.year != nil:
            return .one(
                try await titles.title(source: candidates[0].source, id: candidates[0].providerID, kind: due.kind))
        default: return .several(Array(candidates.prefix(Self.candidateLimit)))
        }
    }

    /// The title the export's ids name: TMDB's id with the household's token, else IMDb's through TMDB's find, or,
    /// without a token, Wikidata (films) or TVmaze (shows). Nil when no id leads anywhere.
    private func byID(_ due: Due) async throws -> ScreenTitle? {
        let tmdbID = due.ids["tmdb"].flatMap { BoundedNumber.id($0) }.map(String.init)
        let imdbID = due.ids["imdb"].flatMap(ScreenIDs.imdbID)
        guard tmdbID != nil || imdbID != nil else { return nil }
        if let token = try await titles.tokens.current() {
            do {
                var found = tmdbID
                if found == nil, let imdbID {
                    found = try await titles.tmdb(token).find(imdb: imdbID, kind: due.kind).map(String.init)
                }
                if let found { return try await titles.title(source: .tmdb, id: found, kind: due.kind) }
            } catch UpstreamFailure.notFound {
            } catch UpstreamFailure.refused(status: 401), UpstreamFailure.circuitOpen {
                // A refused token, or TMDB resting: the keyless providers may know the IMDb id.
            }
        }
        guard let imdbID else { return nil }
        do {
            switch due.kind {
            case .movie:
                guard let item = try await titles.wikidata.item(with: "P345", value: imdbID) else { return nil }
                return try await titles.title(source: .wikidata, id: item, kind: .movie)
            case .show:
                guard let show = try await titles.tvmaze.lookup(imdb: imdbID) else { return nil }
                return try await titles.title(source: .tvmaze, id: String(show), kind: .show)
            case .book:
                return nil
            }
        } catch UpstreamFailure.notFound {
            return nil
        }
    }

    /// Fills the person's own row `bookID` with `title`'s details where it has none (what the export said stays),
    /// gives it the provider's key (so the refresh keeps its episodes current) and poster, and marks it matched.
    /// False when the row is no longer the person's imported row to match (deleted, or matched meanwhile).
    @discardableResult
    func attach(_ title: ScreenTitle, to bookID: Int64, userID: Int64? = nil, now: Date) async throws -> Bool {
        guard let key = title.providerKey else { return false }
        let needsPoster = try await db.read { db in
            try Bool.fetchOne(db, sql: "SELECT cover_path IS NULL FROM book WHERE id = ?", arguments: [bookID]) ?? false
        }
        let poster = needsPoster ? await title.posterURL.asyncFlatMap { await covers.download($0, for: bookID) } : nil
        let (written, posterKept) = try await db.write { db -> (Bool, Bool) in
            guard
                let known = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT external_ids, authors = '[]' AS no_makers, cover_path IS NULL AS no_cover FROM book
                        WHERE id = ? AND source = 'import' AND provider_key IS NULL
                            AND owner_user_id = COALESCE(?, owner_user_id)
                        """, arguments: [bookID, userID])
            else { return (false, false) }
            var ids = (try? JSONDecoder().decode([String: String].self, from: Data((known[0] as String).utf8))) ?? [:]
            ids.merge(title.ids.catalogIDs) { kept, _ in kept }
            try db.execute(
                sql: """
                    UPDATE book SET provider_key = ?, description = COALESCE(description, ?),
                        categories = CASE WHEN categories = '[]' THEN ? ELSE categories END,
                        authors = CASE WHEN authors = '[]' THEN ? ELSE authors END,
                        runtime_minutes = COALESCE(runtime_minutes, ?),
                        cast_names = CASE WHEN COALESCE(cast_names, '[]') = '[]' THEN ? ELSE cast_names END,
                        published_date = COALESCE(published_date, ?), original_title = COALESCE(original_title, ?),
                        external_ids = ?, cover_path = COALESCE(cover_path, ?), title_match = 'matched',
                        title_match_checked_at = ?, provider_checked_at = ?, updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    key, title.overview, CatalogWriter.jsonArray(title.genres), CatalogWriter.jsonArray(title.creators),
                    title.runtimeMinutes, CatalogWriter.jsonArray(title.cast),
                    title.year.map { String(format: "%04d", $0) }, title.originalTitle,
                    CatalogWriter.jsonObject(ids), poster, now, now, now, bookID,
                ])
            try CatalogWriter(db: db).insertEpisodes(of: title.seasons, for: bookID)
            // The makers the row now names, where More like this and the author filter look for them.
            if known["no_makers"] as Bool, !title.creators.isEmpty {
                try db.execute(sql: "DELETE FROM book_author WHERE book_id = ?", arguments: [bookID])
                for (position, name) in title.creators.enumerated() {
                    try db.execute(
                        sql: "INSERT INTO book_author (book_id, position, name) VALUES (?, ?, ?)",
                        arguments: [bookID, position, name])
                }
            }
            try db.execute(sql: "DELETE FROM title_candidate WHERE book_id = ?", arguments: [bookID])
            return (true, known["no_cover"] as Bool)
        }
        // A poster downloaded for a row that got a cover meanwhile, or was not written, is not kept.
        if let poster, !(written && posterKept) { covers.remove(poster) }
        return written
    }

    /// Keeps the titles the person chooses among, and marks the row for their choice.
    func offer(_ candidates: [Candidate], for bookID: Int64, now: Date) async throws {
        try await db.write { db in
            // Only a row still to match: one the person chose for meanwhile keeps their choice.
            try db.execute(
                sql: """
                    UPDATE book SET title_match = 'review', title_match_checked_at = ?
                    WHERE id = ? AND provider_key IS NULL AND (title_match IS NULL OR title_match IN ('waiting', 'none'))
                    """, arguments: [now, bookID])
            guard db.changesCount > 0 else { return }
            try db.execute(sql: "DELETE FROM title_candidate WHERE book_id = ?", arguments: [bookID])
            for (position, candidate) in candidates.prefix(Self.candidateLimit).enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO title_candidate (book_id, position, source, provider_id, title, year, makers)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        bookID, position, candidate.source.rawValue, candidate.providerID, candidate.title,
                        candidate.year, candidate.makers,
                    ])
            }
        }
    }

    /// `state`: `none` or `waiting` (see the migration), for a row still to match (one matched or chosen for
    /// meanwhile is left as it is).
    func mark(_ bookID: Int64, _ state: String, at now: Date) async throws {
        try await db.write { db in try Self.mark(bookID, state, at: now, db) }
    }

    /// "None of these": the person's row waiting for their choice is kept as imported; false when it is not one.
    func keepAsImported(_ bookID: Int64, userID: Int64, at now: Date) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE book SET title_match = 'kept', title_match_checked_at = ?
                    WHERE id = ? AND owner_user_id = ? AND title_match = 'review' AND provider_key IS NULL
                    """, arguments: [now, bookID, userID])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM title_candidate WHERE book_id = ?", arguments: [bookID])
            return true
        }
    }

    private static func mark(_ bookID: Int64, _ state: String, at now: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE book SET title_match = ?, title_match_checked_at = ?
                WHERE id = ? AND provider_key IS NULL AND (title_match IS NULL OR title_match IN ('waiting', 'none'))
                """, arguments: [state, now, bookID])
    }
}
