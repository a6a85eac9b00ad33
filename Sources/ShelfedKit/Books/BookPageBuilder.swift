import Foundation
import GRDB
import Hummingbird

/// Builds a person's book page (issue 36, part 8): made once at start-up and taken by the book controller and by every
/// controller whose refused form shows the book page again (progress, did not finish, your copy, lending,
/// recommending), so none of them holds a `BookController`.
///
/// Everything the page shows — the entry, photos, earlier reads, journal, series, In the house, lending, lists and
/// More like this — is read in one read transaction: a read each was a dozen trips to the connection pool and its
/// queue per page (issue 36, part 9), and one snapshot is what the page shows anyway.
struct BookPageBuilder: Sendable {
    let library: LibraryStore
    let renderer: PageRenderer
    let clock: AppClock
    /// More like this is found only with the model (DESIGN §14); without it the page has no such section.
    let findsSimilar: Bool
    /// More like this as found for earlier pages, until what it is made of changes.
    let similarMemo: SimilarMemo

    init(
        library: LibraryStore, renderer: PageRenderer, clock: AppClock, findsSimilar: Bool, similarLifetime: Duration
    ) {
        (self.library, self.renderer, self.clock, self.findsSimilar) = (library, renderer, clock, findsSimilar)
        similarMemo = SimilarMemo(database: library.db, lifetime: similarLifetime)
    }

    /// How many books More like this lists.
    static let similarCount = 8

    /// What a refused form typed, shown again in its place with `errors`.
    struct Typed: Sendable {
        var progress: JournalSection.Typed? = nil
        var dates: (started: String, finished: String)? = nil
        var review: ReviewValues? = nil
        /// A film's "Watched it again on" day.
        var watchDay: String? = nil
        var errors = FieldErrors()
    }

    /// The signed-in person's entry for the route's `:id`; anything else (unknown, malformed, someone else's) is a 404.
    func requireEntry(_ context: SignedInContext) async throws -> LibraryEntry {
        try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
    }

    /// Which season of a show's episodes the page shows, and from which episode (the page's `?season=&from=`).
    struct EpisodesShown: Sendable {
        var season: Int?
        var from = 0
    }

    /// The page of the route's book, its entry read in the same transaction as the rest (a show's episodes too, as
    /// `episodes` asks); 404 as `requireEntry`.
    func page(_ context: SignedInContext, episodes: EpisodesShown = .init()) async throws -> (
        entry: LibraryEntry, page: BookPage, show: ShowSummary?
    ) {
        let (userID, today) = (context.userID, clock.today())
        guard let bookID = BoundedNumber.id(context.parameters.get("id")) else { throw LibraryStore.notInLibrary }
        let similar = similarLookup()
        let parts = try await library.db.read { db -> (Parts, ShowSummary?)? in
            guard let entry = try LibraryStore.entry(bookID: bookID, of: userID, db) else { return nil }
            let show =
                entry.book.kind == .show
                ? try LibraryStore.showSummary(
                    db, bookID: bookID, for: userID, today: today, season: episodes.season, from: episodes.from)
                : nil
            return (try Parts(entry, similar: similar, db), show)
        }
        guard let (parts, show) = parts else { throw LibraryStore.notInLibrary }
        let page = BookPage(parts, context: context, typed: Typed(), today: today, timeZone: clock.timeZone)
        return (parts.entry, page, show)
    }

    /// The page of `entry` as a refused form shows it: with what was typed.
    func page(_ entry: LibraryEntry, context: SignedInContext, typed: Typed = Typed()) async throws -> BookPage {
        let similar = similarLookup()
        let parts = try await library.db.read { db in try Parts(entry, similar: similar, db) }
        return BookPage(parts, context: context, typed: typed, today: clock.today(), timeZone: clock.timeZone)
    }

    /// A refused form's answer: the book page again, with what was typed, as 422.
    func refused(_ page: BookPage) throws -> Response {
        try renderer.render(page, template: "library/book", status: .unprocessableContent).response
    }

    /// How a page finds More like this: from `memo`, when nothing it is made of changed since `generation`.
    struct SimilarLookup: Sendable {
        let memo: SimilarMemo
        let generation: Int
    }

    /// nil without the model. Read before the page's read transaction begins, so a change committed meanwhile
    /// makes what it finds stale at once (`CommitMemo`).
    private func similarLookup() -> SimilarLookup? {
        findsSimilar ? SimilarLookup(memo: similarMemo, generation: similarMemo.generation()) : nil
    }

    /// What the page reads from the database, all in one transaction.
    struct Parts: Sendable {
        let entry: LibraryEntry
        let photos: (photos: [Photo], count: Int)
        let earlierReads: [ReadThrough]
        /// A film's viewings before its latest, all counted (the page lists at most a hundred).
        let earlierViewingCount: Int
        let journal: (entries: [JournalEntry], total: Int)
        let series: (place: SeriesPlace, next: SeriesStore.Member?)?
        let house: [HouseholdSharing.HouseCopy]
        /// Who may borrow the copy: the members who share. Anyone in the house may be recommended it (issue 35).
        let borrowers: [(id: Int64, name: String)]
        let recipients: [(id: Int64, name: String)]
        /// A film's or show's viewing days, and who was told of them (`WatchedTogetherStore`).
        let togetherDays: [String]
        let told: [WatchedTogetherStore.Told]
        let pageToScreen: BookPage.PageToScreenSection?
        /// A film or show the house's Jellyfin holds.
        let atHome: Bool
        let openLoan: LoanStore.Loan?
        let lists: [(list: ReadingList, contains: Bool)]
        /// nil without the model; `.some(nil)` while the book has no vector yet.
        let similar: [SimilarBooks.Similar]??

        init(_ entry: LibraryEntry, similar lookup: SimilarLookup?, _ db: Database) throws {
            let (bookID, userID) = (entry.bookID, entry.userBook.userId)
            self.entry = entry
            photos = try PhotoStore.latest(ofBook: bookID, userID: userID, limit: 6, db)
            earlierReads =
                entry.book.kind == .movie
                ? try ReadHistory.earlierViewings(of: entry.userBookID, db)
                : try ReadHistory.earlier(than: entry.userBook, db)
            // Counted apart only when the list was cut short.
            earlierViewingCount =
                entry.book.kind != .movie
                ? 0
                : earlierReads.count < ReadHistory.listedViewings
                    ? earlierReads.count
                    : try ReadHistory.earlierViewingCount(of: entry.userBookID, db)
            journal = try ReadingJournal.entries(of: entry.userBookID, db)
            series = try SeriesStore.place(of: entry.book, for: userID, db)
            house = try HouseholdSharing.inTheHouse(bookID: bookID, isbn13: entry.book.isbn13, for: userID, db)
            borrowers = try LoanStore.borrowers(for: userID, db)
            recipients = try RecommendationStore.recipients(for: userID, db)
            let watches = entry.book.kind != .book && !recipients.isEmpty
            togetherDays = watches ? try WatchedTogetherStore.viewingDays(of: entry, db) : []
            told = watches ? try WatchedTogetherStore.told(bookID: bookID, userID: userID, db) : []
            pageToScreen = try BookPage.PageToScreenSection.read(entry, viewer: userID, db)
            atHome = try entry.book.kind != .book && JellyfinLibrary.holds(bookID: bookID, db)
            openLoan = try LoanStore.openLoan(bookID: bookID, userID: userID, db)
            lists = try ReadingListStore.membership(ofBook: bookID, for: userID, db)
            similar = try lookup.map {
                try $0.memo.like(
                    bookID: bookID, userID: userID, limit: BookPageBuilder.similarCount, generation: $0.generation, db)
            }
        }
    }
}

extension BookPage {
    /// The whole page from what was read, and what a refused form typed.
    init(
        _ parts: BookPageBuilder.Parts, context: SignedInContext, typed: BookPageBuilder.Typed, today: String,
        timeZone: TimeZone
    ) {
        let entry = parts.entry
        let bookID = entry.bookID
        let strip = PhotoStrip(
            thumbs: parts.photos.photos.map { PhotoThumb($0, bookTitle: entry.book.title) }, count: parts.photos.count,
            galleryPath: Paths.bookPhotos(bookID), newPhotoPath: Paths.newBookPhoto(bookID))
        self.init(
            context: context, entry: entry, photos: strip, dates: typed.dates, review: typed.review,
            errors: typed.errors, earlierReads: parts.earlierReads, today: today, typedWatchDay: typed.watchDay,
            earlierViewingCount: parts.earlierViewingCount)
        // Page progress and its journal are a book's; a show's episodes come in their own slice (issue 37).
        if entry.book.kind.hasPages {
            journal = JournalSection(
                entry: entry, journal: parts.journal, today: today, typed: typed.progress,
                errors: typed.progress == nil ? .init() : typed.errors)
        }
        if entry.userBook.shelf == .didNotFinish { stop = StopSection(entry) }
        copy = CopySection(entry)
        series = parts.series.map(SeriesLine.init)
        house = HouseSection(parts.house, bookID: bookID, timeZone: timeZone)
        recommend = RecommendSection(bookID: bookID, members: parts.recipients)
        pageToScreen = parts.pageToScreen
        atHome = parts.atHome
        together = TogetherSection(
            bookID: bookID, days: parts.togetherDays, members: parts.recipients, told: parts.told, today: today)
        // Lending is for a copy the person owns (or one out on loan already).
        if entry.userBook.owned == true || parts.openLoan != nil {
            loan = LoanSection(entry, loan: parts.openLoan, borrowers: parts.borrowers, today: today)
        }
        lists = ListsSection(bookID: bookID, membership: parts.lists)
        if let found = parts.similar {
            similar = SimilarSection(found ?? [], bookID: bookID, embedded: found != nil, csrf: context.csrfToken)
        }
    }
}
