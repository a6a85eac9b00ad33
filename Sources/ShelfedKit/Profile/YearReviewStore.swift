import Foundation
import GRDB

/// A year in review (issue 24): the year's statistics and what makes it a story — the books finished (for the cover
/// mosaic and the highest rated), the re-reads, the books put down, and the page photos with words kept that year.
struct YearReview: Sendable {
    struct FinishedBook: Sendable, Equatable {
        let bookID: Int64
        let title: String
        let coverPath: String?
        let rating: Double?
        let finishedOn: String
    }

    struct QuotePhoto: Sendable {
        let photo: Photo
        let bookTitle: String?
    }

    struct PutDown: Sendable, Equatable {
        let bookID: Int64
        let title: String
        let stoppedOn: String
    }

    var statistics: YearStatistics
    /// Newest first, at most `maxBooks`.
    var finished: [FinishedBook] = []
    /// Finishes this year of books finished before.
    var rereads = 0
    var putDown: [PutDown] = []
    var photos: [QuotePhoto] = []
    /// Every year with a finished book, oldest first.
    var years: [Int] = []
    /// The year's films and shows.
    var watching: WatchingStatistics

    static let maxBooks = 120
    static let maxPhotos = 6

    /// The month with the most books finished (pages breaking a tie), as 1–12; nil in a year with none.
    var busiestMonth: Int? {
        guard statistics.booksFinished > 0 else { return nil }
        let best = statistics.months.enumerated().max { left, right in
            (left.element.books, left.element.pages, -left.offset) < (
                right.element.books, right.element.pages, -right.offset
            )
        }
        return best.map { $0.offset + 1 }
    }

    /// The finished books with the highest ratings, best first (at most three).
    var highestRated: [FinishedBook] {
        Array(
            finished.filter { $0.rating != nil }.sorted { ($0.rating!, $1.title) > ($1.rating!, $0.title) }.prefix(3))
    }
}

extension StatisticsStore {
    /// `userID`'s year `year` in review.
    func review(_ year: Int, of userID: Int64) async throws -> YearReview {
        async let statistics = self.year(year, of: userID)
        async let allTime = self.allTime(of: userID, countingPages: false)
        async let watching = self.watching(year, of: userID)
        var review = try await db.read { db in
            var review = YearReview(statistics: YearStatistics(year: year), watching: WatchingStatistics(year: year))
            let pattern = String(format: "%04d-%%", year)
            let arguments: StatementArguments = [userID, pattern, userID, pattern]
            review.finished = try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.title, book.cover_path, user_book.rating, finish.finished_on
                    \(Self.finishedReads()) JOIN user_book ON user_book.id = finish.entry_id
                    ORDER BY finish.finished_on DESC, book.title LIMIT \(YearReview.maxBooks)
                    """, arguments: arguments
            ).map { .init(bookID: $0[0], title: $0[1], coverPath: $0[2], rating: $0[3], finishedOn: $0[4]) }
            review.rereads =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) \(Self.finishedReads()) WHERE EXISTS (
                            SELECT 1 FROM read_through WHERE read_through.user_book_id = finish.entry_id
                                AND read_through.finished_at < finish.finished_on)
                        """, arguments: arguments) ?? 0
            review.putDown = try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.title, user_book.stopped_at FROM user_book
                    JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND user_book.shelf = 'did_not_finish' AND user_book.stopped_at LIKE ?
                    ORDER BY user_book.stopped_at DESC LIMIT 50
                    """, arguments: [userID, pattern]
            ).map { .init(bookID: $0[0], title: $0[1], stoppedOn: $0[2]) }
            review.photos = try Row.fetchAll(
                db,
                sql: """
                    SELECT photo.*, book.title AS book_title FROM photo LEFT JOIN book ON book.id = photo.book_id
                    WHERE photo.user_id = ? AND strftime('%Y', photo.created_at) = ?
                        AND (photo.comment != '' OR photo.ocr_text != '')
                    ORDER BY photo.created_at DESC LIMIT \(YearReview.maxPhotos)
                    """, arguments: [userID, String(format: "%04d", year)]
            ).map { .init(photo: try Photo(row: $0), bookTitle: $0["book_title"]) }
            return review
        }
        review.statistics = try await statistics
        review.watching = try await watching
        review.years = try await allTime.perYear.map(\.year)
        return review
    }
}
