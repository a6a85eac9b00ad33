/// `library/book`: everything about one book in the user's library, and its controls.
struct BookPage: Sendable {
    struct ShelfButton: Sendable {
        let value: String
        let label: String
        let current: Bool
    }

    /// The photo strip under the book's heading.
    struct PhotoStrip: Sendable {
        let thumbs: [PhotoThumb]
        let count: Int
        let galleryPath: String
        let newPhotoPath: String
    }

    var chrome: PageChrome
    let card: BookCard
    let photos: PhotoStrip
    let subtitle: String?
    let publisher: String?
    let publishedDate: String?
    let pageCount: Int?
    let isbn13: String?
    let isbn10: String?
    let categories: String?
    let descriptionParagraphs: [String]
    let shelfButtons: [ShelfButton]
    let datesPath: String
    let removePath: String
    let editPath: String
    let startedValue: String
    let finishedValue: String
    let startedError: String?
    let finishedError: String?
    let reviewPath: String
    /// The star input: no rating, five whole stars, and the quarter steps between them (radio buttons, one group),
    /// as ready HTML: twenty inputs looked up field by field were a tenth of the page's rendering.
    let noRating: Bool
    let wholeStarsHTML: HTMLFragment
    let quarterStarsHTML: HTMLFragment
    let quarterChosen: Bool
    let reviewValue: String
    let notesValue: String
    /// Whether "share this review with the household" is ticked.
    let reviewShared: Bool
    let ratingError: String?
    let reviewError: String?
    let notesError: String?
    let readWithoutDate: Bool
    /// Reads kept from before the current one ("Started 2024-01-03, finished 2024-02-01"), latest first.
    let earlierReads: [EarlierRead]
    let hasEarlierReads: Bool
    /// "More like this"; nil when the server has no model (the section is left out).
    var similar: SimilarSection?
    /// Progress, the update form and the reading journal.
    var journal: JournalSection?
    /// A show's seasons and episodes (issue 37); nil for books and films.
    var episodes: EpisodesSection?
    /// Whether the person owns it, and in what format.
    var copy: CopySection?
    /// When, where and why the person stopped; nil unless the book is on Did not finish.
    var stop: StopSection?
    /// "Book 3 of The Expanse — next: …"; nil for a book in no series.
    var series: SeriesLine?
    /// The lists holding the book.
    var lists: ListsSection?
    /// Who else in the house who shares has it; nil when nobody does.
    var house: HouseSection?
    /// Lending the person's copy.
    var loan: LoanSection?
    /// "Recommend to…": the members who share; nil when there are none.
    var recommend: RecommendSection?
    /// "Watched it with someone?": a film or show watched, and someone else in the house to tell.
    var together: TogetherSection?
    /// A book's films and shows, or the book a film or show is based on (page to screen).
    var pageToScreen: PageToScreenSection?
    /// On the house's Jellyfin: watch it tonight without looking further.
    var atHome = false
    /// The stars at the top; nil on Want to read (a book not read yet is not rated).
    let quickRating: QuickRating?
    /// "4.03 on Goodreads": what readers elsewhere think, when known.
    let community: String?
    /// "by Frank Herbert", "Directed by Denis Villeneuve"; nil without names.
    let byline: String?
    /// "Film · 2021 · 2 h 35 min", "TV show · 2022"; nil for a book, whose page has said what it is all along.
    let kindLine: String?
    /// "With Adam Scott, Britt Lower": a film's or show's first names billed.
    let castLine: String?
    /// "Ainda Estou Aqui" under "I'm Still Here".
    let originalTitle: String?
    /// An imported film or show more than one provider's title fits: where the person chooses.
    let titleChoicePath: String?
    /// Whose data a film or show shows, where its provider asks to be named (TVmaze's CC BY-SA).
    let providerCredit: ProviderCredit?
    /// The shelf, its one next step, and progress while reading.
    let state: ShelfState
    let description: DescriptionLead?
    /// Reading dates make no sense for a book not started, unless it has some (an import's).
    let showsDates: Bool
    /// Which disclosures below are open: the one whose form was refused or just saved.
    var reviewOpen: Bool
    var datesOpen: Bool
    var copyOpen = false
    var recommendOpen = false

    /// The book's place in its series, linking to the series page and to the next book.
    struct SeriesLine: Sendable {
        let phrase: String
        let seriesPath: String
        let nextTitle: String?
        let nextPath: String?
        let nextShelf: String?

        init(_ found: (place: SeriesPlace, next: SeriesStore.Member?)) {
            phrase = found.place.phrase
            seriesPath = Paths.series(found.place.name)
            nextTitle = found.next?.book.title
            let next = found.next
            nextPath = next.flatMap { CatalogLink($0.book, inLibrary: $0.shelf != nil).path }
            nextShelf = next?.shelf?.title
        }
    }

    /// One earlier read as the page says it: "Started ‹date›, finished ‹date›", each date kept on one line. The
    /// template says each case as a whole sentence (so a language can order its words), from these days.
    struct EarlierRead: Sendable {
        /// A film's viewing: a day, not a span.
        let isViewing: Bool
        let started: String?
        let finished: String?
        /// Both days known: "Started ‹date›, finished ‹date›".
        let both: Bool
        let startedOnly: String?
        let finishedOnly: String?
        /// No day known: "Read, date unknown" (a viewing's "Watched, date unknown").
        let undated: Bool

        init(_ read: ReadThrough, kind: TitleKind = .book) {
            isViewing = kind == .movie
            // A viewing has only its day (its finish).
            started = isViewing ? nil : read.startedOn
            finished = read.finishedOn
            both = started != nil && finished != nil
            startedOnly = finished == nil ? started : nil
            finishedOnly = started == nil ? finished : nil
            undated = started == nil && finished == nil
        }
    }

    init(
        context: some PageContext, entry: LibraryEntry, photos: PhotoStrip,
        dates: (started: String, finished: String)? = nil, review: ReviewValues? = nil, errors: FieldErrors = .init(),
        earlierReads: [ReadThrough] = [], today: String, typedWatchDay: String? = nil, earlierViewingCount: Int = 0
    ) {
        self.photos = photos
        let book = entry.book
        chrome = PageChrome(title: book.title, context: context, tab: .shelves)
        card = BookCard(LibraryItem(entry))
        subtitle = book.subtitle
        publisher = book.publisher
        publishedDate = book.publishedDate
        pageCount = book.pageCount
        isbn13 = book.isbn13
        isbn10 = book.isbn10
        categories = book.categories.isEmpty ? nil : book.categories.joined(separator: ", ")
        descriptionParagraphs = (book.description ?? "").components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        shelfButtons = Shelf.allCases.map {
            ShelfButton(value: $0.rawValue, label: $0.title(for: book.kind), current: $0 == entry.userBook.shelf)
        }
        datesPath = Paths.bookDates(book.id!)
        removePath = Paths.bookRemove(book.id!)
        editPath = Paths.bookEdit(book.id!)
        startedValue = dates?.started ?? entry.userBook.startedAt ?? ""
        finishedValue = dates?.finished ?? entry.userBook.finishedAt ?? ""
        startedError = errors["started_at"]
        finishedError = errors["finished_at"]
        reviewPath = Paths.bookReview(book.id!)
        let chosen = (review?.rating ?? entry.userBook.rating.map { String($0) }).flatMap(Double.init)
        // The twenty choices are the same on every page but for the one checked.
        let choices = Self.starChoices.map { choice, value in
            StarChoice(
                id: choice.id, value: choice.value, shown: choice.shown, spoken: choice.spoken, filled: choice.filled,
                checked: chosen == value)
        }
        noRating = chosen == nil
        let whole = choices.enumerated().filter { ($0.offset + 1) % 4 == 0 }.map(\.element)
        let quarters = choices.enumerated().filter { ($0.offset + 1) % 4 != 0 }.map(\.element)
        wholeStarsHTML = Self.radios(whole, whole: true)
        quarterStarsHTML = Self.radios(quarters, whole: false)
        quarterChosen = quarters.contains { $0.checked }
        reviewValue = review?.review ?? entry.userBook.review ?? ""
        notesValue = review?.notes ?? entry.userBook.privateNotes ?? ""
        reviewShared = review?.shared ?? entry.userBook.reviewShared
        ratingError = errors["rating"]
        reviewError = errors["comments"]
        notesError = errors["private_notes"]
        readWithoutDate = entry.userBook.shelf == .read && entry.userBook.finishedAt == nil
        self.earlierReads = earlierReads.map { EarlierRead($0, kind: book.kind) }
        hasEarlierReads = !earlierReads.isEmpty
        let userBook = entry.userBook
        quickRating = userBook.shelf == .wantToRead ? nil : QuickRating(bookID: book.id!, rating: userBook.rating)
        community = book.community?.text
        byline = Self.byline(book)
        kindLine = Self.kindLine(book)
        let cast = book.castNames.joined(separator: ", ")
        castLine = book.castNames.isEmpty ? nil : localized("With {{names}}", ["names": cast])
        originalTitle = book.originalTitle
        providerCredit = ProviderCredit(book.source, providerKey: book.providerKey)
        titleChoicePath =
            book.titleMatch == "review" && book.providerKey == nil
            ? Paths.titleMatches + "?title=\(book.id ?? 0)#title-\(book.id ?? 0)" : nil
        state = ShelfState(
            entry, today: today, earlierViewings: earlierViewingCount,
            watchDay: errors["watched_on"] == nil ? nil : typedWatchDay,
            watchedOnError: errors["watched_on"])
        description = DescriptionLead(descriptionParagraphs)
        // …and always when dates were typed and refused: the form comes back with them.
        showsDates =
            userBook.shelf != .wantToRead || userBook.startedAt != nil || userBook.finishedAt != nil || dates != nil
        reviewOpen = ratingError != nil || reviewError != nil || notesError != nil
        datesOpen = startedError != nil || finishedError != nil
    }

    /// The review form's twenty star choices, ¼ to 5, none checked, each with its value. Computed for each page:
    /// the words spoken are the request's language.
    static var starChoices: [(choice: StarChoice, value: Double)] {
        (1...20).map { quarter in
            let value = Double(quarter) / 4
            let choice = StarChoice(
                id: "rating-\(quarter)", value: quarter % 4 == 0 ? String(quarter / 4) : String(value),
                shown: quarter % 4 == 0 ? "★" : starsNumber(value) + "★",
                spoken: starsLabel(value), filled: quarter / 4, checked: false)
            return (choice, value)
        }
    }

    /// "4¾ stars", "1 star": quarter steps as a reader says them.
    static func starsLabel(_ value: Double) -> String {
        value == 1 ? localized("1 star") : localized("{{stars}} stars", ["stars": starsNumber(value)])
    }

    /// "4¾", "½": the stars of a rating as a number, without the word.
    static func starsNumber(_ value: Double) -> String {
        let whole = Int(value)
        let fraction = ["", "¼", "½", "¾"][Int(((value - Double(whole)) * 4).rounded())]
        return whole == 0 ? fraction : "\(whole)\(fraction)"
    }
}

/// What was typed into the review form, kept when it is shown again with a message.
struct ReviewValues: Sendable {
    let rating: String
    let review: String
    let notes: String
    let shared: Bool
}

/// `library/remove`: asks before a book leaves the library.
struct RemoveBookPage: Sendable {
    let chrome: PageChrome
    let card: BookCard
    let removePath: String
    /// Says how many of the user's photos go with the book; nil when there are none.
    let photoWarning: String?
}
