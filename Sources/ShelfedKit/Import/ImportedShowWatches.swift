import Foundation
import GRDB

/// A show's episodes as an export recorded them, written into the person's viewings (DESIGN §17): the first day an
/// episode was watched belongs to the first viewing, the second to the second, and so on, so several plays of one
/// episode are several passes through the show, never one overwritten. Each episode is in a viewing at most once:
/// importing again, or the history after the watched list, changes nothing but an earlier day the other file knew.
///
/// A show of the person's own (imported without a provider) gets the episodes the export names; a show the house
/// shares from TMDB or TVmaze keeps its provider's list, and an episode not on it is counted as left out.
enum ImportedShowWatches {
    struct Outcome: Equatable {
        var changed = false
        var leftOut = 0
    }

    static func merge(_ episodes: [ImportedEpisode], bookID: Int64, userID: Int64, _ db: Database) throws -> Outcome {
        var outcome = Outcome()
        guard !episodes.isEmpty else { return outcome }
        let isOwn =
            try Int64.fetchOne(db, sql: "SELECT owner_user_id FROM book WHERE id = ?", arguments: [bookID]) == userID
        let findEpisode = try db.cachedStatement(
            sql: "SELECT id FROM episode WHERE book_id = ? AND season = ? AND number = ?")
        let addEpisode = try db.cachedStatement(
            sql: "INSERT INTO episode (book_id, season, number) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        let watch = try db.cachedStatement(
            sql: """
                INSERT INTO episode_watch (viewing_id, episode_id, watched_on) VALUES (?, ?, ?)
                ON CONFLICT (viewing_id, episode_id) DO UPDATE SET watched_on = excluded.watched_on
                WHERE excluded.watched_on < episode_watch.watched_on
                """)
        var viewings = try viewingIDs(bookID: bookID, userID: userID, db)
        for episode in episodes {
            var episodeID = try Int64.fetchOne(findEpisode, arguments: [bookID, episode.season, episode.number])
            if episodeID == nil, isOwn {
                try addEpisode.execute(arguments: [bookID, episode.season, episode.number])
                episodeID = db.lastInsertedRowID
            }
            guard let episodeID else {
                outcome.leftOut += 1
                continue
            }
            for (index, day) in episode.days.sorted().enumerated() {
                let number = index + 1
                let viewingID: Int64
                if let known = viewings[number] {
                    viewingID = known
                } else {
                    try db.execute(
                        sql: "INSERT INTO show_viewing (user_id, book_id, number, started_on) VALUES (?, ?, ?, ?)",
                        arguments: [userID, bookID, number, day])
                    viewingID = db.lastInsertedRowID
                    viewings[number] = viewingID
                }
                try watch.execute(arguments: [viewingID, episodeID, day])
                if db.changesCount > 0 { outcome.changed = true }
            }
        }
        // Each viewing starts on its first episode's day.
        try db.execute(
            sql: """
                UPDATE show_viewing SET started_on = (
                    SELECT MIN(watched_on) FROM episode_watch WHERE viewing_id = show_viewing.id)
                WHERE user_id = ? AND book_id = ? AND EXISTS (SELECT 1 FROM episode_watch WHERE viewing_id = show_viewing.id)
                """, arguments: [userID, bookID])
        return outcome
    }

    /// The person's viewings of the show by number.
    private static func viewingIDs(bookID: Int64, userID: Int64, _ db: Database) throws -> [Int: Int64] {
        var ids: [Int: Int64] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT number, id FROM show_viewing WHERE user_id = ? AND book_id = ?",
            arguments: [userID, bookID])
        {
            ids[row[0]] = row[1]
        }
        return ids
    }
}
