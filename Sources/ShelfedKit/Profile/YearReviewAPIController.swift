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

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: .init("id"))
            try container.encode(title, forKey: .init("title"))
            try container.encode(imageURL, forKey: .init("image_url"))
            try container.encode(rating, forKey: .init("rating"))
            try container.encode(finishedOn, forKey: .init("finished_on"))
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

        func encode(to encoder: any Encoder) throws {
            let statistics = review.statistics
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(statistics.year, forKey: .init("year"))
            try container.encode(statistics.booksFinished, forKey: .init("books_finished"))
            try container.encode(statistics.pagesRead, forKey: .init("pages_read"))
            try container.encode(statistics.averageLength, forKey: .init("average_length"))
            try container.encode(
                review.busiestMonth.map { month in
                    Month(
                        month: month, books: statistics.months[month - 1].books,
                        pages: statistics.months[month - 1].pages)
                }, forKey: .init("busiest_month"))
            try container.encode(
                review.finished.map {
                    Book(
                        id: $0.bookID, title: $0.title, imageURL: $0.coverPath.map { "/covers/" + $0 },
                        rating: $0.rating, finishedOn: $0.finishedOn)
                }, forKey: .init("books"))
            try container.encode(review.highestRated.map(\.bookID), forKey: .init("highest_rated_ids"))
            try container.encode(statistics.longest?.bookID, forKey: .init("longest_id"))
            try container.encode(statistics.shortest?.bookID, forKey: .init("shortest_id"))
            try container.encode(
                statistics.topAuthors.map { Ranked(name: $0.name, count: $0.count) }, forKey: .init("top_authors"))
            try container.encode(
                statistics.topCategories.map { Ranked(name: $0.name, count: $0.count) }, forKey: .init("top_genres"))
            try container.encode(review.rereads, forKey: .init("rereads"))
            try container.encode(
                review.putDown.map { PutDown(id: $0.bookID, title: $0.title, stoppedOn: $0.stoppedOn) },
                forKey: .init("did_not_finish"))
        }
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// GET /api/v1/profile/year/:year
    @Sendable func show(_ request: Request, context: APIContext) async throws -> Response {
        guard let year = context.parameters.get("year").flatMap({ BoundedNumber.parse($0, in: BoundedNumber.year) })
        else { throw HTTPError(.notFound, message: "There is no such year. Years run from 1 to 9999.") }
        return JSONBody.response(Answer(review: try await statistics.review(year, of: context.userID)))
    }
}
