import Foundation
import Hummingbird

/// `/profile/year/:year`: a year of reading as a page to look at — the covers, the numbers, the best month, the
/// highest rated, the authors and genres, the re-reads and the books put down, the page photos kept.
struct YearReviewController: Sendable {
    let statistics: StatisticsStore
    let renderer: PageRenderer

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.profileYear.routerPath, use: show)
    }

    /// GET /profile/year/:year
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        guard let year = context.parameters.get("year").flatMap({ BoundedNumber.parse($0, in: BoundedNumber.year) })
        else { throw AppError.notFound(localized("There is no such year. Years run from 1 to 9999.")) }
        let review = try await statistics.review(year, of: context.userID)
        return try renderer.render(YearReviewPage(context: context, review: review), template: "profile/year")
    }
}

/// `profile/year`
struct YearReviewPage: Sendable {
    struct Cover: Sendable {
        let title: String
        let path: String
        /// Nil for a book without a cover: its tile shows the title instead.
        let coverURL: String?
    }

    struct Line: Sendable {
        let text: String
        let path: String?
        let detail: String
    }

    struct YearLink: Sendable {
        let year: Int
        let path: String
        let current: Bool
    }

    let chrome: PageChrome
    let year: Int
    /// "Your 2026 in books", "… in books, films and shows", "… in films and shows".
    let heading: String
    let hasReading: Bool
    /// Nothing read, put down or watched: the page says how a year fills.
    let isEmpty: Bool
    let watching: WatchingSection?
    let booksFinished: Int
    /// "book finished" or "books finished", after the number.
    let booksFinishedNoun: String
    let pagesRead: String
    let pagesReadNoun: String
    let averageLength: Int?
    let busiestMonth: String?
    let covers: [Cover]
    let monthsChart: HTMLFragment
    let longest: Line?
    let shortest: Line?
    let highestRated: [Line]
    let authors: [Line]
    let genres: [Line]
    let rereads: String?
    let putDown: [Line]
    let photos: [PhotoThumb]
    let years: [YearLink]

    init(context: some PageContext, review: YearReview) {
        let statistics = review.statistics
        year = statistics.year
        chrome = PageChrome(
            title: localized("{{year}} in review", ["year": String(year)]), context: context, tab: .profile)
        hasReading = statistics.booksFinished > 0 || !review.putDown.isEmpty
        watching = WatchingSection(review.watching, withTiles: true)
        isEmpty = !hasReading && watching == nil
        switch (hasReading, watching != nil) {
        case (true, true): heading = localized("Your {{year}} in books, films and shows", ["year": String(year)])
        case (false, true): heading = localized("Your {{year}} in films and shows", ["year": String(year)])
        default: heading = localized("Your {{year}} in books", ["year": String(year)])
        }
        booksFinished = statistics.booksFinished
        booksFinishedNoun = localized(one: "book finished", other: "books finished", count: statistics.booksFinished)
        pagesRead = statistics.pagesRead.grouped
        pagesReadNoun = localized(one: "page read", other: "pages read", count: statistics.pagesRead)
        averageLength = statistics.averageLength
        let monthNames = ReadingChart.monthNames
        busiestMonth = review.busiestMonth.map { month in
            let counts = statistics.months[month - 1]
            let values: KeyValuePairs<String, String> = [
                "month": monthNames[month - 1], "books": String(counts.books), "pages": String(counts.pages),
            ]
            return counts.pages > 0
                ? localized(
                    one: "{{month}}: {{books}} book, {{pages}} pages",
                    other: "{{month}}: {{books}} books, {{pages}} pages", count: counts.books, values)
                : localized(
                    one: "{{month}}: {{books}} book", other: "{{month}}: {{books}} books", count: counts.books, values)
        }
        covers = review.finished.map {
            Cover(title: $0.title, path: Paths.book($0.bookID), coverURL: $0.coverPath.map { BookCover.url(for: $0) })
        }
        monthsChart = ReadingChart.months(statistics)
        longest = statistics.longest.map {
            Line(
                text: $0.title, path: Paths.book($0.bookID),
                detail: localized("{{pages}} pages", ["pages": String($0.pages)]))
        }
        shortest = statistics.shortest.map {
            Line(
                text: $0.title, path: Paths.book($0.bookID),
                detail: localized("{{pages}} pages", ["pages": String($0.pages)]))
        }
        highestRated = review.highestRated.map {
            Line(text: $0.title, path: Paths.book($0.bookID), detail: BookPage.starsLabel($0.rating ?? 0))
        }
        func books(_ count: Int) -> String {
            localized(one: "{{books}} book", other: "{{books}} books", count: count, ["books": String(count)])
        }
        authors = statistics.topAuthors.map {
            Line(text: $0.name, path: nil, detail: books($0.count))
        }
        genres = statistics.topCategories.map {
            Line(
                text: $0.name, path: Pagination.link(Paths.shelves, query: ["category": $0.name], page: 1),
                detail: books($0.count))
        }
        rereads =
            review.rereads == 0
            ? nil
            : localized(
                one: "{{books}} book read again", other: "{{books}} books read again", count: review.rereads,
                ["books": String(review.rereads)])
        putDown = review.putDown.map { Line(text: $0.title, path: Paths.book($0.bookID), detail: $0.stoppedOn) }
        photos = review.photos.map { PhotoThumb($0.photo, bookTitle: $0.bookTitle) }
        years = review.years.map { YearLink(year: $0, path: Paths.profileYear($0), current: $0 == statistics.year) }
    }
}
