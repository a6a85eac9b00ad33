import Foundation
import GRDB
import Hummingbird

/// Viewings and episodes through the API (DESIGN §17): a film's dated viewings, a show's passes with their episode
/// counts, watching again, and marking episodes as the show's page does.
extension TitlesAPIController {
    /// GET /api/v1/titles/:id/viewings: oldest first, numbered from 1.
    @Sendable func viewings(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try Self.id(context)
        let userID = context.userID
        let found = try await library.db.read { db -> [TitleJSON.Viewing]? in
            guard let entry = try LibraryStore.entry(bookID: bookID, of: userID, db), entry.book.kind != .book else {
                return nil
            }
            if entry.book.kind == .show {
                return try Row.fetchAll(
                    db,
                    sql: """
                        SELECT v.number, v.started_on, v.finished_on, COUNT(e.id) FROM show_viewing v
                        LEFT JOIN episode_watch w ON w.viewing_id = v.id
                        LEFT JOIN episode e ON e.id = w.episode_id AND e.season > 0
                        WHERE v.user_id = ? AND v.book_id = ? GROUP BY v.id ORDER BY v.number
                        """, arguments: [userID, bookID]
                ).map { TitleJSON.Viewing(id: $0[0], started: $0[1], finished: $0[2], episodesWatched: $0[3]) }
            }
            // A film: its earlier viewings, then the latest (the entry's own days) when it has been watched.
            var passes = try ReadHistory.earlierViewings(of: entry.userBookID, limit: 1_000, db).reversed().map {
                ($0.startedOn, $0.finishedOn)
            }
            if entry.userBook.shelf == .read || entry.userBook.finishedAt != nil {
                passes.append((entry.userBook.startedAt, entry.userBook.finishedAt))
            }
            return passes.enumerated().map { index, pass in
                TitleJSON.Viewing(id: Int64(index + 1), started: pass.0, finished: pass.1, episodesWatched: 0)
            }
        }
        guard let found else { throw Self.notFound }
        struct Answer: Encodable { let viewings: [TitleJSON.Viewing] }
        return JSONBody.response(Answer(viewings: found))
    }

    /// POST /api/v1/titles/:id/viewings: a film watched again (`{"date"}`, today when absent), or a show's next
    /// viewing; 409 for a title not watched to the end yet.
    @Sendable func watchAgain(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try Self.id(context)
        let title = try await requireTitle(bookID, context)
        struct Body: Decodable { let date: String? }
        let body =
            request.headers[.contentType] == nil ? Body(date: nil) : try await JSONBody.decode(Body.self, from: request)
        let today = clock.today()
        guard title.shelf == Shelf.read.titleAPIID else {
            throw HTTPError(.conflict, message: localized("Only a title on Watched can be watched again."))
        }
        if title.kind == TitleKind.movie.rawValue {
            let day = body.date ?? today
            guard CalendarDate.isValidDay(day), day <= today else {
                throw HTTPError(.unprocessableContent, message: "date must be a day like 2025-12-24, not after today.")
            }
            _ = try await library.watchAgain(bookID: bookID, on: day, for: context.userID, now: clock.now())
        } else {
            do {
                _ = try await library.watchShowAgain(
                    bookID: bookID, for: context.userID, today: today, now: clock.now())
            } catch is NotWatchedToTheEnd {
                throw HTTPError(.conflict, message: localized("Only a title on Watched can be watched again."))
            }
        }
        return try await viewings(request, context: context).withStatus(.created)
    }

    /// GET /api/v1/titles/:id/episodes: every season's episodes, each watched or not in the open viewing.
    @Sendable func episodes(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try Self.id(context)
        let title = try await requireTitle(bookID, context)
        guard title.kind == TitleKind.show.rawValue else {
            throw HTTPError(.notFound, message: "A film has no episodes.")
        }
        return JSONBody.response(try await episodeList(bookID, userID: context.userID))
    }

    /// POST /api/v1/titles/:id/episodes: `{"season","episode"}`, `{"season","upTo"}` or `{"season"}` (the whole
    /// season); `"watched": false` unmarks. Idempotent. 200 with the episodes as they are now.
    @Sendable func markEpisodes(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try Self.id(context)
        struct Body: Decodable {
            let season: Int
            let episode: Int?
            let upTo: Int?
            let watched: Bool?
        }
        let body = try await JSONBody.decode(Body.self, from: request)
        guard ScreenLimits.seasonNumbers.contains(body.season),
            [body.episode, body.upTo].allSatisfy({ $0.map(ScreenLimits.episodeNumbers.contains) ?? true }),
            body.episode == nil || body.upTo == nil
        else {
            throw HTTPError(
                .unprocessableContent,
                message: localized("Send season, and episode or upTo (not both), as the show lists them."))
        }
        let mark: EpisodeMark =
            if let episode = body.episode {
                .episode(season: body.season, number: episode)
            } else if let upTo = body.upTo {
                .upTo(season: body.season, number: upTo)
            } else {
                .season(body.season)
            }
        do {
            guard
                try await library.mark(
                    mark, watched: body.watched ?? true, bookID: bookID, for: context.userID, today: clock.today(),
                    now: clock.now()) != nil
            else { throw Self.notFound }
        } catch is NoSuchEpisode {
            throw HTTPError(.notFound, message: localized("This show has no such episode, or this is not a show."))
        }
        return JSONBody.response(try await episodeList(bookID, userID: context.userID))
    }

    private func episodeList(_ bookID: Int64, userID: Int64) async throws -> TitleJSON.Episodes {
        let today = clock.today()
        return try await library.db.read { db in
            let viewing = try Row.fetchOne(
                db,
                sql:
                    "SELECT id, number FROM show_viewing WHERE user_id = ? AND book_id = ? ORDER BY number DESC LIMIT 1",
                arguments: [userID, bookID])
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT e.season, e.number, e.title, e.air_date, w.watched_on FROM episode e
                    LEFT JOIN episode_watch w ON w.episode_id = e.id AND w.viewing_id = ?
                    WHERE e.book_id = ? ORDER BY e.season, e.number
                    """, arguments: [(viewing?["id"] as Int64?) ?? 0, bookID])
            var seasons: [TitleJSON.Season] = []
            var current: (number: Int, episodes: [TitleJSON.Episode])?
            var (watched, aired) = (0, 0)
            for row in rows {
                let season: Int = row[0]
                let airDate: String? = row[3]
                let watchedOn: String? = row[4]
                if season > 0, airDate.map({ $0 <= today }) ?? true {
                    aired += 1
                    if watchedOn != nil { watched += 1 }
                }
                if current?.number != season {
                    if let done = current {
                        seasons.append(TitleJSON.Season(number: done.number, episodes: done.episodes))
                    }
                    current = (season, [])
                }
                current?.episodes.append(
                    TitleJSON.Episode(
                        number: row[1], title: row[2], airDate: airDate, watched: watchedOn != nil,
                        watchedOn: watchedOn))
            }
            if let done = current { seasons.append(TitleJSON.Season(number: done.number, episodes: done.episodes)) }
            return TitleJSON.Episodes(viewing: viewing?["number"], watched: watched, aired: aired, seasons: seasons)
        }
    }
}

extension Response {
    /// The same answer with another status.
    func withStatus(_ status: HTTPResponse.Status) -> Response {
        var response = self
        response.status = status
        return response
    }
}
