import GRDB
import Hummingbird

/// The home feed: what the user is reading now, then what they added and finished lately.
struct HomeController: Sendable {
    let library: LibraryStore
    let renderer: PageRenderer
    let clock: AppClock
    let journal: ReadingJournal
    /// "Read next"; nil when the server has no model.
    var readNext: ReadNext? = nil
    /// Whether the page shows the household's sections (issue 25).
    var showsHousehold = false
    static let recentCount = 6
    static let houseItems = 8
    static let suggestionCount = 4
    static let newEpisodesShown = 6

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.home.routerPath, use: index)
    }

    /// GET /
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let userID = context.userID
        let today = clock.today()
        // One read for everything the page shows: each read is a hop to a database thread and back, which cost more
        // than the queries themselves (perf under benchmarks/house_feed.py).
        let household = showsHousehold
        let read = try await library.db.read { db in
            // The page shows no totals, so none are counted (`knownTotal`).
            let reading = try LibraryStore.fetchPage(
                db, of: userID, filter: .shelf(.reading), sort: LibrarySort(key: .added), page: 1,
                pageSize: LibraryStore.pageSize, knownTotal: 0
            ).items
            let newEpisodes = try LibraryStore.showsWithNewEpisodes(
                db, of: userID, today: today, limit: Self.newEpisodesShown)
            return (
                reading: reading,
                newEpisodes: newEpisodes,
                added: try LibraryStore.fetchPage(
                    db, of: userID, filter: .all, sort: LibrarySort(key: .added), page: 1, pageSize: Self.recentCount,
                    knownTotal: 0
                ).items,
                finished: try LibraryStore.recentlyFinished(db, of: userID, limit: Self.recentCount),
                progress: reading.isEmpty ? [:] : try ReadingJournal.readingProgress(db, of: userID),
                upNext: try LibraryStore.upNext(
                    db, of: userID, bookIDs: reading.filter { $0.kind == .show }.map(\.bookID), today: today),
                firstNew: try LibraryStore.firstNewEpisodes(
                    db, of: userID, bookIDs: newEpisodes.map(\.bookID), today: today),
                house: household ? try Self.householdRead(db, userID: userID, today: today) : nil
            )
        }
        let (readingItems, addedItems, finishedItems, progress) = (
            read.reading, read.added, read.finished, read.progress
        )
        func cards(_ items: [LibraryItem]) -> HTMLFragment {
            BookCardList.html(items, csrfToken: context.csrfToken, returnTo: Paths.home)
        }
        var chrome = PageChrome(title: localized("Home"), context: context, tab: .feed)
        chrome.toast = try await ActionNotice.toast(
            query: FormFields(urlEncoded: request.uri.query ?? ""), path: Paths.home, userID: userID, library: library,
            csrfToken: context.csrfToken, today: clock.today())
        var page = HomePage(
            chrome: chrome,
            hasBooks: !addedItems.isEmpty,
            inProgress: readingItems.map { item in
                HomePage.ProgressItem(
                    item, progress: progress[item.bookID], upNext: read.upNext[item.bookID], csrf: context.csrfToken)
            },
            recentlyAddedCards: addedItems.isEmpty ? nil : cards(addedItems),
            recentlyFinishedCards: finishedItems.isEmpty ? nil : cards(finishedItems))
        page.newEpisodes = read.newEpisodes.compactMap { item in
            // Aired since the person caught up, so there is always a next one; a show without is not listed.
            read.firstNew[item.bookID].map {
                HomePage.ProgressItem(item, progress: nil, upNext: $0, csrf: context.csrfToken, isNew: true)
            }
        }
        if let house = read.house {
            Self.addHousehold(house, to: &page, userID: userID, isAdmin: context.user.isAdmin, today: today)
        }
        if let readNext, !addedItems.isEmpty {
            page.readNext = .init(try await readNext.suggestions(for: userID, limit: Self.suggestionCount))
        }
        return try renderer.render(page, template: "library/home")
    }

    /// The house feed, this year's challenge, loans, borrow requests and recommendations.
    struct HouseholdRead: Sendable {
        let feed: (items: [HouseholdSharing.FeedItem], hasMore: Bool)
        let viewerShares: Bool
        let challenge: HouseChallengeStore.Progress?
        let overdue: [LoanStore.Overdue]
        let borrowed: [LoanStore.Borrowed]
        let received: [RecommendationStore.Received]
        let incoming: [BorrowRequestStore.Incoming]
        let outgoing: [BorrowRequestStore.Outgoing]
    }

    static func householdRead(_ db: Database, userID: Int64, today: String) throws -> HouseholdRead {
        HouseholdRead(
            feed: try HouseholdSharing.feed(db, for: userID, page: 1, pageSize: Self.houseItems),
            viewerShares: try HouseholdSharing.isSharing(db, userID),
            challenge: try HouseChallengeStore.progress(db, of: Int(today.prefix(4)) ?? 0),
            overdue: try LoanStore.overdue(db, lender: userID, today: today),
            borrowed: try LoanStore.borrowed(db, by: userID),
            received: try RecommendationStore.received(db, by: userID),
            incoming: try BorrowRequestStore.incoming(db, for: userID),
            outgoing: try BorrowRequestStore.outgoing(db, for: userID))
    }

    private static func addHousehold(
        _ read: HouseholdRead, to page: inout HomePage, userID: Int64, isAdmin: Bool, today: String
    ) {
        page.house = HouseFeedSection(read.feed, page: 1, viewerShares: read.viewerShares, today: today)
        page.challenge = read.challenge.map { HouseChallengeSection($0, viewer: userID, viewerIsAdmin: isAdmin) }
        page.overdue = read.overdue.map { loan in
            HomePage.LoanLine(
                title: loan.title, path: Paths.book(loan.bookID),
                text: localized(
                    "lent to {{borrower}} on {{lentOn}}, due back {{dueOn}}",
                    ["borrower": loan.borrowerName, "lentOn": loan.lentOn, "dueOn": loan.dueOn]))
        }
        page.borrowed = read.borrowed.map { loan in
            HomePage.LoanLine(
                title: loan.title, path: nil,
                text: loan.dueOn.map { dueOn in
                    localized(
                        "from {{lender}} since {{lentOn}}, due back {{dueOn}}",
                        ["lender": loan.lender, "lentOn": loan.lentOn, "dueOn": dueOn])
                } ?? localized("from {{lender}} since {{lentOn}}", ["lender": loan.lender, "lentOn": loan.lentOn]))
        }
        page.recommended = read.received.map { received in
            HomePage.RecommendedLine(
                from: received.from, title: received.title, note: received.note,
                path: received.recipientBookID.map(Paths.book) ?? received.bookID.map(Paths.houseBook)
                    ?? Paths.houseFeed,
                dismissPath: Paths.recommendationDismiss(received.id))
        }
        page.requests = read.incoming.map { request in
            HomePage.RequestLine(
                requester: request.requester, title: request.title, bookPath: Paths.book(request.bookID),
                answerPath: Paths.borrowAnswer(request.id))
        }
        page.asked = read.outgoing.map { asked in
            HomePage.LoanLine(
                title: asked.title, path: nil,
                text: localized("asked of {{owner}}, waiting for an answer", ["owner": asked.owner]))
        }
    }
}

/// `library/home`: each section's cards as ready HTML, nil when the section is empty.
struct HomePage: Sendable {
    let chrome: PageChrome
    let hasBooks: Bool
    /// Each book on the Reading shelf with its bar and a one-field update form.
    let inProgress: [ProgressItem]
    /// Shows watched to the end that have aired more since, each with its next episode.
    var newEpisodes: [ProgressItem] = []
    let recentlyAddedCards: HTMLFragment?
    let recentlyFinishedCards: HTMLFragment?
    var readNext: ReadNextSection?
    /// What the members who share have been reading.
    var house: HouseFeedSection?
    /// The person's books on loan past their day, and the books they have borrowed.
    var overdue: [LoanLine] = []
    var borrowed: [LoanLine] = []
    /// Members asking to borrow the person's copies, and what the person asked for.
    var requests: [RequestLine] = []
    var asked: [LoanLine] = []
    /// Books members recommended to the person.
    var recommended: [RecommendedLine] = []
    /// This year's house reading challenge, when the admin set one.
    var challenge: HouseChallengeSection?

    struct RecommendedLine: Sendable {
        let from: String
        let title: String
        let note: String?
        let path: String
        let dismissPath: String
    }

    struct RequestLine: Sendable {
        let requester: String
        let title: String
        let bookPath: String
        let answerPath: String
    }

    struct LoanLine: Sendable {
        let title: String
        let path: String?
        let text: String
    }

    struct ProgressItem: Sendable {
        let bookID: Int64
        let title: String
        let authors: String?
        let path: String
        let coverURL: String
        let hasCover: Bool
        let bar: ProgressBar?
        let byPercent: Bool
        let pageCount: Int?
        let progressPath: String
        let shelfPath: String
        let csrf: String
        /// A film or show on Watching has no page to note; a show has its next episode instead.
        let tracksPages: Bool
        let upNext: EpisodeLine?
        let episodesPath: String
        /// Its next episode aired after the person had watched the show to the end.
        let isNew: Bool

        init(
            _ item: LibraryItem, progress: (progress: ReadingProgress, byPercent: Bool)?, upNext: EpisodeLine? = nil,
            csrf: String, isNew: Bool = false
        ) {
            self.upNext = upNext
            self.isNew = isNew
            episodesPath = Paths.bookEpisodes(item.bookID)
            bookID = item.bookID
            title = item.title
            authors = item.authors.isEmpty ? nil : item.authors
            path = Paths.book(item.bookID)
            coverURL = BookCover.url(for: item.coverPath)
            hasCover = item.coverPath != nil
            bar = progress.flatMap { ProgressBar($0.progress) }
            byPercent = progress?.byPercent ?? false
            pageCount = progress?.progress.pageCount
            progressPath = Paths.bookProgress(item.bookID)
            shelfPath = Paths.bookShelf(item.bookID)
            self.csrf = csrf
            tracksPages = item.kind.hasPages
        }
    }

    /// Suggestions from the Want-to-read shelf, or what Shelfed needs before it can make any.
    struct ReadNextSection: Sendable {
        struct Item: Sendable {
            let title: String
            let authors: String?
            let path: String
            let coverURL: String
            let hasCover: Bool
            let because: String?
            /// "the book " before `because`, when it is of another kind.
            let becauseLead: String
            /// "Sam and Alex", who recommended it.
            let recommendedBy: String?
        }

        let items: [Item]
        let emptyMessage: String?
        /// "Read next", or "Read or watch next" when a film or show is among the suggestions.
        var heading = localized("Read next")

        init(_ outcome: ReadNext.Outcome) {
            switch outcome {
            case .suggestions(let suggestions):
                items = suggestions.map {
                    Item(
                        title: $0.title, authors: $0.authors.isEmpty ? nil : $0.authors, path: Paths.book($0.bookID),
                        coverURL: BookCover.url(for: $0.coverPath), hasCover: $0.coverPath != nil, because: $0.because,
                        becauseLead: $0.becauseLead,
                        recommendedBy: $0.recommendedBy.isEmpty ? nil : Self.names($0.recommendedBy))
                }
                emptyMessage = nil
                if suggestions.contains(where: { $0.kind != .book }) { heading = localized("Read or watch next") }
            case .nothingLoved:
                items = []
                emptyMessage = localized(
                    "Rate the books you loved 4 stars or more, or mark them as favourites, and Shelfed will suggest what to read next from your Want to read shelf."
                )
            case .nothingAlike:
                items = []
                emptyMessage = localized(
                    "Nothing on your Want to read shelf is much like the books you loved yet. Add a few you might read, and the closest will show here."
                )
            case .nothingWanted:
                items = []
                emptyMessage = localized(
                    "Add books you might read to your Want to read shelf, and Shelfed will suggest which of them is most like the books you loved."
                )
            }
        }

        /// "Sam and Alex", "Sam and Alex and Jo": who recommended a suggestion.
        static func names(_ names: [String]) -> String {
            names.dropFirst().reduce(names.first ?? "") { joined, name in
                localized("{{first}} and {{second}}", ["first": joined, "second": name])
            }
        }
    }
}
