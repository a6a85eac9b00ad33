import Foundation
import Hummingbird

/// `GET /api/v1/profile/year/:year`: the year in review for Shelfed's own clients, in the Reader API's style.
struct YearReviewAPIController: Sendable {
    let statistics: StatisticsStore

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.profileYear.routerPath, use: show)
    }

    struct Book: Encodable {
        let id: Int64
        let title: String
        let imageURL: String?
        let rating: Double?
        let finishedOn: String

        enum CodingKeys: String, CodingKey {
            case id, title, rating
            case imageURL = "image_url"
            case finishedOn = "finished_on"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(imageURL, forKey: .imageURL)
            try container.encode(rating, forKey: .rating)
            try container.encode(finishedOn, forKey: .finishedOn)
        }
    }

    struct Ranked: Encodable {
        let name: String
        let count: Int
    }

    struct Month: Encodable {
        let month: Int
        let books: Int
        let pages: Int
    }

    struct PutDown: Encodable {
        let id: Int64
        let title: String
        let stoppedOn: String

        enum CodingKeys: String, CodingKey {
            case id, title
            case stoppedOn = "stopped_on"
        }
    }

    struct Answer: Encodable {
        let review: YearReview

        enum CodingKeys: String, CodingKey {
            case year, books, rereads
            case booksFinished = "books_finished"
            case pagesRead = "pages_read"
            case averageLength = "average_length"
            case busiestMonth = "busiest_month"
            case highestRatedIDs = "highest_rated_ids"
            case longestID = "longest_id"
            case shortestID = "shortest_id"
            case topAuthors = "top_authors"
            case topGenres = "top_genres"
            case didNotFinish = "did_not_finish"
            case watching
        }

        func encode(to encoder: any Encoder) throws {
            let statistics = review.statistics
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(statistics.year, forKey: .year)
            try container.encode(statistics.booksFinished, forKey: .booksFinished)
            try container.encode(statistics.pagesRead, forKey: .pagesRead)
            try container.encode(statistics.averageLength, forKey: .averageLength)
            try container.encode(
                review.busiestMonth.map { month in
                    Month(
                        month: month, books: statistics.months[month - 1].books,
                        pages: statistics.months[month - 1].pages)
                }, forKey: .busiestMonth)
            try container.encode(
                review.finished.map {
                    Book(
                        id: $0.bookID, title: $0.title, imageURL: $0.coverPath.map { "/covers/" + $0 },
                        rating: $0.rating, finishedOn: $0.finishedOn)
                }, forKey: .books)
            try container.encode(review.highestRated.map(\.bookID), forKey: .highestRatedIDs)
            try container.encode(statistics.longest?.bookID, forKey: .longestID)
            try container.encode(statistics.shortest?.bookID, forKey: .shortestID)
            try container.encode(
                statistics.topAuthors.map { Ranked(name: $0.name, count: $0.count) }, forKey: .topAuthors)
            try container.encode(
                statistics.topCategories.map { Ranked(name: $0.name, count: $0.count) }, forKey: .topGenres)
            try container.encode(review.rereads, forKey: .rereads)
            try container.encode(
                review.putDown.map { PutDown(id: $0.bookID, title: $0.title, stoppedOn: $0.stoppedOn) },
                forKey: .didNotFinish)
            try container.encode(Watching(review.watching), forKey: .watching)
        }
    }

    /// The year's films and shows.
    struct Watching: Encodable {
        struct Title: Encodable {
            let id: Int64
            let kind: TitleKind
            let title: String
            let imageURL: String?
            let rating: Double?
            let day: String

            enum CodingKeys: String, CodingKey {
                case id, kind, title, rating, day
                case imageURL = "image_url"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(kind, forKey: .kind)
                try container.encode(title, forKey: .title)
                try container.encode(imageURL, forKey: .imageURL)
                try container.encode(rating, forKey: .rating)
                try container.encode(day, forKey: .day)
            }
        }

        let filmsWatched: Int
        let episodesWatched: Int
        let showsFinished: Int
        let minutesWatched: Int
        let titles: [Title]

        enum CodingKeys: String, CodingKey {
            case titles
            case filmsWatched = "films_watched"
            case episodesWatched = "episodes_watched"
            case showsFinished = "shows_finished"
            case minutesWatched = "minutes_watched"
        }

        init(_ statistics: WatchingStatistics) {
            filmsWatched = statistics.filmsWatched
            episodesWatched = statistics.episodesWatched
            showsFinished = statistics.showsFinished
            minutesWatched = statistics.minutesWatched
            titles = statistics.titles.map {
                Title(
                    id: $0.bookID, kind: $0.kind, title: $0.title, imageURL: $0.coverPath.map { "/covers/" + $0 },
                    rating: $0.rating, day: $0.day)
            }
        }
    }

    /// GET /api/v1/profile/year/:year
    @Sendable func show(_ request: Request, context: APIContext) async throws -> Response {
        guard let year = context.parameters.get("year").flatMap({ BoundedNumber.parse($0, in: BoundedNumber.year) })
        else { throw HTTPError(.notFound, message: localized("There is no such year. Years run from 1 to 9999.")) }
        return JSONBody.response(Answer(review: try await statistics.review(year, of: context.userID)))
    }
}
