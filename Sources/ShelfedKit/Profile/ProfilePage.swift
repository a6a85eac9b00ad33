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
    /// Pages read per week and month from the reading journal, and the streak; nil before the first update.
    var journal: JournalLines?

    struct JournalLines: Sendable {
        struct Row: Sendable {
            let label: String
            let pages: Int
            /// 0–100 of the largest row, for the bar.
            let share: Int
        }

        let thisWeek: Int
        let thisMonth: Int
        let streak: String
        let weeks: [Row]
        let months: [Row]

        init?(_ statistics: JournalStatistics) {
            guard statistics.hasEntries else { return nil }
            thisWeek = statistics.pagesThisWeek
            thisMonth = statistics.pagesThisMonth
            streak =
                statistics.streak == 0
                ? localized("No reading streak right now: update your progress today to start one.")
                : localized(
                    one: "A {{days}}-day reading streak.", other: "A {{days}}-day reading streak.",
                    count: statistics.streak, ["days": String(statistics.streak)])
            func rows(_ periods: [JournalStatistics.Period], label: (String) -> String) -> [Row] {
                let most = max(periods.map(\.pages).max() ?? 0, 1)
                return periods.map { Row(label: label($0.start), pages: $0.pages, share: $0.pages * 100 / most) }
            }
            weeks = rows(statistics.weeks) { localized("Week of {{day}}", ["day": $0]) }
            let monthNames = ReadingChart.monthNames
            months = rows(statistics.months) { start in
                let month = Int(start.suffix(2)) ?? 1
                return "\(monthNames[max(0, min(11, month - 1))]) \(start.prefix(4))"
            }
        }
    }
    // All time
    let allTimeBooks: Int
    let allTimePages: Int
    let yearsActive: Int
    /// Nil hides the line (Mustache counts 0 as true).
    let readWithoutDate: Int?
    /// Books on Did not finish, counted apart from the books read; nil hides the count.
    var didNotFinish: Int? = nil
    /// The year's films and shows; nil when none was watched that year.
    var watching: WatchingSection? = nil
    /// This year's house reading challenge, when the admin set one.
    var challenge: HouseChallengeSection? = nil
    let yearsChart: HTMLFragment
}

extension ProfilePage.BookLink {
    init(_ length: YearStatistics.BookLength) {
        self.init(
            title: length.title, path: Paths.book(length.bookID),
            detail: localized("{{pages}} pages", ["pages": String(length.pages)]))
    }
}
