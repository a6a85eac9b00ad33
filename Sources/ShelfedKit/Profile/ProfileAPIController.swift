import Foundation
import Hummingbird

/// `GET /api/v1/profile`: who the key belongs to, their shelf counts and a year of reading (this year unless
/// `?year=`), with books and pages per month and the yearly goal.
struct ProfileAPIController: Sendable {
    let library: LibraryStore
    let photos: PhotoStore
    let statistics: StatisticsStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.profile.routerPath, use: show)
    }

    struct ProfileResponse: Encodable {
        struct Counts: Encodable {
            let reading: Int
            let wantToRead: Int
            let read: Int
            let didNotFinish: Int
            let favourites: Int
            let photos: Int

            enum CodingKeys: String, CodingKey {
                case reading, read, favourites, photos
                case wantToRead = "want_to_read"
                case didNotFinish = "did_not_finish"
            }
        }

        struct Month: Encodable {
            let month: Int
            let books: Int
            let pages: Int
        }

        let username: String
        let displayName: String
        let email: String
        let counts: Counts
        let year: Int
        let booksFinished: Int
        let pagesRead: Int
        let goal: Int?
        let months: [Month]

        enum CodingKeys: String, CodingKey {
            case username, email, counts, year, goal, months
            case displayName = "display_name"
            case booksFinished = "books_finished"
            case pagesRead = "pages_read"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(username, forKey: .username)
            try container.encode(displayName, forKey: .displayName)
            try container.encode(email, forKey: .email)
            try container.encode(counts, forKey: .counts)
            try container.encode(year, forKey: .year)
            try container.encode(booksFinished, forKey: .booksFinished)
            try container.encode(pagesRead, forKey: .pagesRead)
            try container.encode(goal, forKey: .goal)
            try container.encode(months, forKey: .months)
        }
    }

    /// GET /api/v1/profile?year=
    @Sendable func show(_ request: Request, context: APIContext) async throws -> Response {
        let currentYear = Int(clock.today().prefix(4)) ?? 2000
        var year = currentYear
        if let text = request.uri.queryParameters["year"] {
            guard let parsed = BoundedNumber.parse(text, in: BoundedNumber.year) else {
                throw HTTPError(.badRequest, message: "year must be a whole number from 1 to 9999.")
            }
            year = parsed
        }
        async let counts = library.bookCounts(of: context.userID)
        async let photoCount = photos.count(of: context.userID)
        async let statistics = statistics.year(year, of: context.userID)
        let (shelves, photos, stats) = try await (counts, photoCount, statistics)
        let user = context.user
        let response = ProfileResponse(
            username: user.username, displayName: user.displayName, email: user.email,
            counts: .init(
                reading: shelves[.reading], wantToRead: shelves[.wantToRead], read: shelves[.read],
                didNotFinish: shelves[.didNotFinish], favourites: shelves.favourites, photos: photos),
            year: year, booksFinished: stats.booksFinished, pagesRead: stats.pagesRead, goal: user.readingGoal,
            months: stats.months.enumerated().map {
                .init(month: $0.offset + 1, books: $0.element.books, pages: $0.element.pages)
            })
        return JSONBody.response(response)
    }
}
