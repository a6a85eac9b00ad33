/// `library/new`: the manual-add form with what was typed and a message per field.
struct NewBookPage: Sendable {
    struct ShelfOption: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    /// The kinds a person can add, as links that switch the form.
    struct KindChoice: Sendable {
        let label: String
        let path: String
        let current: Bool
    }

    let chrome: PageChrome
    let form: NewBookValues
    let shelves: [ShelfOption]
    let kind: String
    let heading: String
    let creatorsLabel: String
    let dateLabel: String
    let hasPages: Bool
    let isMovie: Bool
    let kinds: [KindChoice]
    let runtimeError: String?
    let kindError: String?
    let titleError: String?
    let isbnError: String?
    let pageCountError: String?
    let publishedDateError: String?
    let descriptionError: String?
    let shelfError: String?
    let existingBookPath: String?

    init(context: some PageContext, form: NewBookForm, errors: FieldErrors = .init(), existingBookID: Int64? = nil) {
        let titleKind = form.titleKind
        heading =
            switch titleKind {
            case .book: localized("Add a book")
            case .movie: localized("Add a film")
            case .show: localized("Add a TV show")
            }
        chrome = PageChrome(title: heading, context: context, tab: .shelves)
        self.form = NewBookValues(form)
        shelves = Shelf.allCases.map {
            ShelfOption(value: $0.rawValue, label: $0.title(for: titleKind), selected: $0.rawValue == form.shelf)
        }
        kind = titleKind.rawValue
        creatorsLabel = titleKind.creatorsLabel
        dateLabel = titleKind.dateLabel
        hasPages = titleKind.hasPages
        isMovie = titleKind == .movie
        let choices: [(String, TitleKind)] = [
            (localized("Book"), .book), (localized("Film"), .movie), (localized("TV show"), .show),
        ]
        kinds = choices.map { label, kind in
            KindChoice(label: label, path: Paths.newTitle(kind), current: kind == titleKind)
        }
        runtimeError = errors["runtime"]
        kindError = errors["kind"]
        titleError = errors["title"]
        isbnError = errors["isbn"]
        pageCountError = errors["page_count"]
        publishedDateError = errors["published_date"]
        descriptionError = errors["description"]
        shelfError = errors["shelf"]
        existingBookPath = existingBookID.map(Paths.book)
    }
}

/// The typed values of the manual-add form, as Mustache reads them.
struct NewBookValues: Sendable {
    let title, subtitle, authors, isbn, pageCount, publishedDate, publisher, description: String
    let series, seriesPosition, runtime: String

    init(_ form: NewBookForm) {
        title = form.title
        subtitle = form.subtitle
        authors = form.authors
        isbn = form.isbn
        pageCount = form.pageCount
        publishedDate = form.publishedDate
        publisher = form.publisher
        description = form.description
        series = form.series
        seriesPosition = form.seriesPosition
        runtime = form.runtime
    }
}
