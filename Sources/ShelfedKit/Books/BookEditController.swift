import Foundation
import Hummingbird

/// Editing a book after it is added (title to ISBN, and its cover): a row the person owns changes in place, a
/// provider's shared row becomes their own copy (`LibraryStore.edit`).
struct BookEditController: Sendable {
    let library: LibraryStore
    let search: BookSearchService
    let covers: CoverStore
    let uploader: PhotoUploader
    let renderer: PageRenderer
    let clock: AppClock
    let maxUploadBytes: Int
    /// How long the cover choices wait for the providers: the search's page wait and a little more (a fixed three
    /// seconds answered 504 to a slow machine's test run while the providers were still answering).
    var coverWait: Duration = .seconds(3)

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.bookEdit.routerPath, use: edit)
        router.post(Route.bookEdit.routerPath, use: update)
        router.post(Route.bookCover.routerPath, use: uploadCover)
        router.get(Route.bookCoverChoices.routerPath, use: coverChoices)
        router.post(Route.bookCoverChoices.routerPath, use: pickCover)
    }

    /// GET /books/:id/edit
    @Sendable func edit(_ request: Request, context: SignedInContext) async throws -> HTML {
        let entry = try await requireEntry(context)
        return try renderer.render(
            EditBookPage(context: context, entry: entry, form: NewBookForm(entry.book)), template: "library/edit")
    }

    /// POST /books/:id/edit: the same fields and rules as adding a book by hand, plus the subtitle.
    @Sendable func update(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let entry = try await requireEntry(context)
        var form = try await request.decodeForm(NewBookForm.self)
        form.shelf = entry.userBook.shelf.rawValue
        // A title keeps its kind: a film's form is checked as a film's (no ISBN, a running time), whatever was sent.
        form.kind = entry.book.kind.rawValue
        switch form.validate() {
        case .failure(let errors):
            let page = EditBookPage(context: context, entry: entry, form: form, errors: errors)
            return try renderer.render(page, template: "library/edit", status: .unprocessableContent)
                .response(from: request, context: context)
        case .success(let (book, _)):
            let change = LibraryStore.BookEdit(
                title: book.title, subtitle: book.subtitle, authors: book.authors, isbn: book.isbn,
                pageCount: book.pageCount, publisher: book.publisher, publishedDate: book.publishedDate,
                description: book.description, series: book.series, runtimeMinutes: book.runtimeMinutes)
            switch try await library.edit(bookID: entry.bookID, for: context.userID, change, now: clock.now()) {
            case .edited(let bookID):
                return .seeOther(ActionNotice.link(Paths.book(bookID), adding: [("saved", "book")]))
            case .duplicate(let other):
                var errors = FieldErrors()
                errors["isbn"] = localized("Another book in your library has this ISBN.")
                var page = EditBookPage(context: context, entry: entry, form: form, errors: errors)
                page.duplicatePath = Paths.book(other)
                return try renderer.render(page, template: "library/edit", status: .conflict)
                    .response(from: request, context: context)
            case .notFound:
                throw LibraryStore.notInLibrary
            }
        }
    }

    /// POST /books/:id/cover (multipart: `_csrf`, then `photo`): a picture of the cover, through the photo
    /// pipeline (type checked by its bytes, turned upright, location removed, sized for the screen).
    @Sendable func uploadCover(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await requireEntry(context)
        let media = uploader.media
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: context.csrfToken,
            temporaryFile: { media.temporaryFile() })
        defer { upload.discardFiles() }
        guard let file = upload.files.first else {
            var page = EditBookPage(context: context, entry: entry, form: NewBookForm(entry.book))
            page.coverError = localized("Choose a picture of the cover: take one, or choose one from your photos.")
            return try renderer.render(page, template: "library/edit", status: .unprocessableContent)
                .response(from: request, context: context)
        }
        _ = try ImageProcessor.readableKind(at: file.url, retry: localized("and choose another picture."))
        let display = media.temporaryFile(".jpg")
        let thumbnail = media.temporaryFile(".jpg")
        defer {
            try? FileManager.default.removeItem(at: display)
            try? FileManager.default.removeItem(at: thumbnail)
        }
        _ = try await uploader.processor.derive(from: file.url, display: display, thumbnail: thumbnail)
        let name = try covers.store(file: display, for: entry.bookID)
        return try await useCover(name, entry: entry, context: context)
    }

    /// GET /books/:id/cover/choices: the covers Google Books and Open Library have for the book's ISBN.
    @Sendable func coverChoices(_ request: Request, context: SignedInContext) async throws -> HTML {
        let entry = try await requireEntry(context)
        guard let isbn = entry.book.isbn13.flatMap(ISBN.init) ?? entry.book.isbn10.flatMap(ISBN.init) else {
            throw HTTPError(
                .notFound,
                message: localized("This book has no ISBN to look covers up by. Add one, or upload a picture."))
        }
        let choices = try await resultWithin(coverWait) { [search] in await search.coverCandidates(isbn: isbn) }
        let page = CoverChoicesPage(
            chrome: PageChrome(title: localized("Choose a cover"), context: context, tab: .shelves),
            title: entry.book.title,
            bookPath: Paths.book(entry.bookID), editPath: Paths.bookEdit(entry.bookID),
            action: Paths.bookCoverChoices(entry.bookID),
            choices: choices.enumerated().map { .init(index: $0.offset, url: $0.element) })
        return try renderer.render(page, template: "library/covers")
    }

    /// POST /books/:id/cover/choices (`choice`: the number of a cover shown): downloads it and uses it. The
    /// address is looked up again from the ISBN, never taken from the form.
    @Sendable func pickCover(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let entry = try await requireEntry(context)
        let form = try await request.formFields()
        guard let isbn = entry.book.isbn13.flatMap(ISBN.init) ?? entry.book.isbn10.flatMap(ISBN.init),
            let index = form["choice"].flatMap({ BoundedNumber.parse($0, in: 0...5) })
        else { throw HTTPError(.badRequest, message: localized("Choose one of the covers shown.")) }
        let choices = await search.coverCandidates(isbn: isbn)
        guard index < choices.count, let name = await covers.download(choices[index], for: entry.bookID) else {
            throw HTTPError(
                .badGateway,
                message: localized("That cover could not be fetched just now. Try another, or upload a picture."))
        }
        return try await useCover(name, entry: entry, context: context)
    }

    private func useCover(_ name: String, entry: LibraryEntry, context: SignedInContext) async throws -> Response {
        guard
            let (bookID, unused) = try await library.setOwnCover(
                bookID: entry.bookID, for: context.userID, file: name, now: clock.now())
        else {
            covers.remove(name)
            throw LibraryStore.notInLibrary
        }
        if let unused { covers.remove(unused) }
        return .seeOther(ActionNotice.link(Paths.book(bookID), adding: [("saved", "cover")]))
    }

    private func requireEntry(_ context: SignedInContext) async throws -> LibraryEntry {
        try await library.requireEntry(bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
    }
}

extension NewBookForm {
    /// The edit form filled in from the book as it is.
    init(_ book: Book) {
        self.init()
        title = book.title
        subtitle = book.subtitle ?? ""
        authors = book.authors.joined(separator: ", ")
        isbn = book.isbn13 ?? book.isbn10 ?? ""
        pageCount = book.pageCount.map(String.init) ?? ""
        publishedDate = book.publishedDate ?? ""
        publisher = book.publisher ?? ""
        description = book.description ?? ""
        series = book.series ?? ""
        seriesPosition = book.seriesPosition.map(SeriesPlace.spelled) ?? ""
        kind = book.kind.rawValue
        // Only a film's running time is the person's to change (a show's is its episodes').
        runtime = book.kind == .movie ? book.runtimeMinutes.map(String.init) ?? "" : ""
    }
}

/// `library/edit`: the book's fields as typed, with a message beside each that needs fixing, and its cover.
struct EditBookPage: Sendable {
    let chrome: PageChrome
    let form: NewBookValues
    let action: String
    let bookPath: String
    let coverAction: String
    let coverChoicesPath: String?
    let coverURL: String
    let hasCover: Bool
    let isShared: Bool
    /// The words and fields of the title's kind: a film has a director, a year and a running time, no ISBN or pages.
    let heading: String
    let creatorsLabel: String
    let dateLabel: String
    let isBook: Bool
    let isMovie: Bool
    let sharedNote: String
    let titleError, subtitleError, isbnError, pageCountError, publishedDateError, descriptionError: String?
    let runtimeError: String?
    let seriesError, seriesPositionError: String?
    var duplicatePath: String?
    var coverError: String?

    init(context: some PageContext, entry: LibraryEntry, form: NewBookForm, errors: FieldErrors = .init()) {
        let book = entry.book
        chrome = PageChrome(title: localized("Edit {{title}}", ["title": book.title]), context: context, tab: .shelves)
        self.form = NewBookValues(form)
        action = Paths.bookEdit(book.id!)
        bookPath = Paths.book(book.id!)
        coverAction = Paths.bookCover(book.id!)
        coverChoicesPath = book.isbn13 ?? book.isbn10 == nil ? nil : Paths.bookCoverChoices(book.id!)
        coverURL = BookCover.url(for: book.coverPath)
        hasCover = book.coverPath != nil
        isShared = book.ownerUserId == nil
        heading =
            switch book.kind {
            case .book: localized("Edit the book")
            case .movie: localized("Edit the film")
            case .show: localized("Edit the TV show")
            }
        creatorsLabel = book.kind.creatorsLabel
        dateLabel = book.kind.dateLabel
        isBook = book.kind == .book
        isMovie = book.kind == .movie
        let source =
            book.kind == .book
            ? localized("These details came from a book service.")
            : localized("These details came from a film and TV service.")
        let yours =
            switch book.kind {
            case .book: localized("Your changes are yours alone: nobody else's copy of this book changes.")
            case .movie: localized("Your changes are yours alone: nobody else's copy of this film changes.")
            case .show: localized("Your changes are yours alone: nobody else's copy of this TV show changes.")
            }
        sharedNote = source + " " + yours
        runtimeError = errors["runtime"]
        titleError = errors["title"]
        subtitleError = errors["subtitle"]
        isbnError = errors["isbn"]
        pageCountError = errors["page_count"]
        publishedDateError = errors["published_date"]
        descriptionError = errors["description"]
        seriesError = errors["series"]
        seriesPositionError = errors["series_position"]
    }
}

/// `library/covers`: the providers' covers for the book's ISBN, one to choose.
struct CoverChoicesPage: Sendable {
    struct Choice: Sendable {
        let index: Int
        let url: String
    }

    let chrome: PageChrome
    let title: String
    let bookPath: String
    let editPath: String
    let action: String
    let choices: [Choice]
}
