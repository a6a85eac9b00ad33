import Foundation
import Hummingbird

/// The profile tab: who the user is, how their shelves add up, their uploads and their picture.
struct ProfileController: Sendable {
    let library: LibraryStore
    let statistics: StatisticsStore
    let users: UserStore
    let photos: PhotoStore
    let uploader: PhotoUploader
    let renderer: PageRenderer
    let clock: AppClock
    let maxUploadBytes: Int
    var challenges: HouseChallengeStore? = nil
    static let uploadsShown = 12

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.profile.routerPath, use: show)
        router.post(Route.profileAvatar.routerPath, use: updateAvatar)
        router.post(Route.profileGoal.routerPath, use: updateGoal)
    }

    /// GET /profile?year=: the person, their shelves, a year of statistics (default this year) and uploads.
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await profile(request, context: context)
    }

    /// The profile page; with `goalTyped`, shown again after a goal that could not be saved, with its message.
    private func profile(
        _ request: Request, context: SignedInContext, goalTyped: String? = nil, goalError: String? = nil
    ) async throws -> HTML {
        let user = context.user
        let userID = context.userID
        let today = clock.today()
        let currentYear = Int(today.prefix(4))!
        let year =
            request.uri.queryParameters["year"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.year) }
            ?? currentYear
        // The tiles say "Want to read", "Reading", "Read": books only (films and shows have their own section).
        async let counts = library.bookCounts(of: userID)
        async let allKinds = library.counts(of: userID)
        async let uploads = photos.latestUploads(of: userID, limit: Self.uploadsShown)
        async let yearStatistics = statistics.year(year, of: userID)
        async let allTime = statistics.allTime(of: userID)
        async let reading = library.items(of: userID, filter: .shelf(.reading), sort: LibrarySort(key: .added), page: 1)
        async let photoCount = photos.count(of: userID)
        async let watching = statistics.watching(year, of: userID)
        let (shelfCounts, latest, stats, totals, current) = try await (
            counts, uploads, yearStatistics, allTime, reading
        )

        let years = Set(totals.perYear.map(\.year) + [currentYear, year]).sorted(by: >)
        let goal = user.readingGoal.flatMap { goal -> GoalProgress? in
            guard year == currentYear else { return nil }
            let (day, days) = Self.dayOfYear(today)
            return GoalProgress(goal: goal, finished: stats.booksFinished, dayOfYear: day, daysInYear: days)
        }
        var chrome = PageChrome(title: localized("Profile"), context: context, tab: .profile)
        chrome.toast = try await ActionNotice.toast(
            query: FormFields(urlEncoded: request.uri.query ?? ""), path: Paths.profile, userID: userID,
            library: library, csrfToken: context.csrfToken, today: today)
        // English keeps the server's own way of writing dates; the other languages write them their way.
        var memberSince = Date.FormatStyle.dateTime.year().month(.wide).day()
        if Language.current != .en { memberSince.locale = Language.current.locale }
        var page = ProfilePage(
            chrome: chrome,
            displayName: user.displayName, username: user.username,
            memberSince: user.createdAt.formatted(memberSince),
            avatarURL: user.avatarPhotoId.map { Paths.photoFile($0, .thumb) } ?? "/static/img/avatar-placeholder.svg",
            wantToRead: shelfCounts[.wantToRead], reading: shelfCounts[.reading], read: shelfCounts[.read],
            favourites: try await allKinds.favourites, photoCount: try await photoCount,
            uploads: latest.map { PhotoThumb($0.photo, bookTitle: $0.bookTitle) },
            maxUploadMB: maxUploadBytes / 1_048_576, year: year,
            yearOptions: years.map { .init(value: $0, selected: $0 == year) }, isCurrentYear: year == currentYear,
            booksFinished: stats.booksFinished, pagesRead: stats.pagesRead, averageLength: stats.averageLength,
            hasFinished: stats.booksFinished > 0, monthsChart: ReadingChart.months(stats),
            monthRows: stats.months.enumerated().map {
                .init(month: ReadingChart.monthNames[$0.offset], books: $0.element.books, pages: $0.element.pages)
            },
            topAuthors: stats.topAuthors.map { .init(name: $0.name, count: $0.count) },
            topCategories: stats.topCategories.map { .init(name: $0.name, count: $0.count) },
            longest: stats.longest.map(ProfilePage.BookLink.init),
            shortest: stats.shortest.map(ProfilePage.BookLink.init),
            currentlyReading: current.items.map {
                .init(
                    title: $0.title, path: Paths.book($0.bookID),
                    detail: $0.startedAt.map { localized("since {{day}}", ["day": $0]) } ?? "")
            },
            goal: goal, goalValue: goalTyped ?? user.readingGoal.map(String.init) ?? "",
            allTimeBooks: totals.booksRead, allTimePages: totals.pagesRead, yearsActive: totals.yearsActive,
            readWithoutDate: totals.readWithoutDate > 0 ? totals.readWithoutDate : nil,
            yearsChart: ReadingChart.years(totals.perYear))
        page.goalError = goalError
        page.didNotFinish = shelfCounts[.didNotFinish] > 0 ? shelfCounts[.didNotFinish] : nil
        page.watching = WatchingSection(try await watching)
        // The same pass over the journal as the all-time figures: one definition, read once.
        page.journal = ProfilePage.JournalLines(JournalStatistics(totals.pages, today: today))
        if let challenges, let progress = try await challenges.progress(of: currentYear) {
            page.challenge = HouseChallengeSection(progress, viewer: userID, viewerIsAdmin: user.isAdmin)
        }
        return try renderer.render(
            page, template: "profile/show", status: goalError == nil ? .ok : .unprocessableContent)
    }

    /// POST /profile/goal (`goal`: books this year; empty or 0 clears it)
    @Sendable func updateGoal(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let userID = context.userID
        let form = try await request.decodeForm(GoalForm.self)
        guard form.isValid else {
            // The profile again, the typed goal kept, the message beside the field.
            return try await profile(
                request, context: context, goalTyped: String(form.typed.prefix(40)),
                goalError: localized("Enter a goal as a number of books from 1 to 1000, or leave it empty.")
            ).response(from: request, context: context)
        }
        try await users.setReadingGoal(id: userID, goal: form.goal)
        return .seeOther(ActionNotice.link(Paths.profile, adding: [("saved", "goal")], anchor: "goal"))
    }

    /// Day number of `date` (`yyyy-mm-dd`) in its year, and the year's length.
    static func dayOfYear(_ date: String) -> (day: Int, days: Int) {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        let (year, month, day) = (parts[0], parts[1], parts[2])
        let before = (1..<month).reduce(0) { $0 + CalendarDate.daysIn(month: $1, year: year) }
        let days = CalendarDate.daysIn(month: 2, year: year) == 29 ? 366 : 365
        return (before + day, days)
    }

    /// POST /profile/avatar (multipart: `_csrf`, then `photo`): a new picture replaces the old one and its files.
    @Sendable func updateAvatar(_ request: Request, context: SignedInContext) async throws -> Response {
        let userID = context.userID
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: context.csrfToken,
            temporaryFile: { uploader.media.temporaryFile() })
        guard let file = upload.files.first else {
            upload.discardFiles()
            throw HTTPError(.badRequest, message: localized("Choose a picture for your profile, then press Save."))
        }
        defer { upload.discardFiles() }
        let photo = try await uploader.store(
            file, userID: userID, details: .init(squareThumbnail: true), now: clock.now())
        if let replaced = try await photos.setAvatar(photo.id!, for: userID) {
            uploader.media.remove(replaced.files)
        }
        return .seeOther(ActionNotice.link(Paths.profile, adding: [("saved", "avatar")]))
    }
}
