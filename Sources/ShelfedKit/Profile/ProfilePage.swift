/// `profile/show`: the person, their shelves, the year's statistics and goal, all-time totals and uploads.
struct ProfilePage: Sendable {
    struct YearOption: Sendable {
        let value: Int
        let selected: Bool
    }

    struct MonthRow: Sendable {
        let month: String
        let books: Int
        let pages: Int
    }

    struct Ranked: Sendable {
        let name: String
        let count: Int
    }

    struct BookLink: Sendable {
        let title: String
        let path: String
        let detail: String
    }

    let chrome: PageChrome
    let displayName: String
    let username: String
    let memberSince: String
    let avatarURL: String
    let wantToRead: Int
    let reading: Int
    let read: Int
    let favourites: Int
    let photoCount: Int
    let uploads: [PhotoThumb]
    let maxUploadMB: Int
    // The selected year
    let year: Int
    let yearOptions: [YearOption]
    let isCurrentYear: Bool
    let booksFinished: Int
    let pagesRead: Int
    let averageLength: Int?
    let hasFinished: Bool
    let monthsChart: HTMLFragment
    let monthRows: [MonthRow]
    let topAuthors: [Ranked]
    let topCategories: [Ranked]
    let longest: BookLink?
    let shortest: BookLink?
    let currentlyReading: [BookLink]
    let goal: GoalProgress?
    let goalValue: String
    var goalError: String?
    // All time
    let allTimeBooks: Int
    let allTimePages: Int
    let yearsActive: Int
    /// Nil hides the line (Mustache counts 0 as true).
    let readWithoutDate: Int?
    let yearsChart: HTMLFragment
}

extension ProfilePage.BookLink {
    init(_ length: YearStatistics.BookLength) {
        self.init(title: length.title, path: Paths.book(length.bookID), detail: "\(length.pages) pages")
    }
}
