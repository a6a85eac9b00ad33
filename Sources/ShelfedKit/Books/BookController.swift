import Foundation
import Hummingbird

/// One book: manual add, its page, moving it between shelves, favourite, dates and removal.
struct BookController: Sendable {
    let pages: BookPageBuilder
    let books: LibraryService
    let photos: PhotoStore
    let media: MediaStore
    var library: LibraryStore { pages.library }
    var renderer: PageRenderer { pages.renderer }
    var clock: AppClock { pages.clock }

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.newBook.routerPath, use: new)
        router.post(Route.books.routerPath, use: create)
        router.get(Route.book.routerPath, use: show)
        router.post(Route.bookShelf.routerPath, use: move)
        router.post(Route.bookFavourite.routerPath, use: favourite)
        router.post(Route.bookDates.routerPath, use: updateDates)
        router.post(Route.bookReview.routerPath, use: updateReview)
        router.post(Route.bookRating.routerPath, use: rate)
        router.get(Route.bookRemove.routerPath, use: confirmRemove)
        router.post(Route.bookRemove.routerPath, use: remove)
    }

    /// GET /books/new: the manual-add form, pre-filled from the query when given (e.g. `?title=`).
    @Sendable func new(_ request: Request, context: SignedInContext) async throws -> HTML {
        var form = NewBookForm()
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        form.title = query["title"] ?? ""
        form.authors = query["authors"] ?? ""
        form.isbn = query["isbn"] ?? ""
        if let shelf = query["shelf"], Shelf(rawValue: shelf) != nil { form.shelf = shelf }
        if let kind = query["kind"], TitleKind(rawValue: kind) != nil { form.kind = kind }
        return try renderer.render(NewBookPage(context: context, form: form), template: "library/new")
    }

    /// POST /books: adds the book by hand and opens its page.
    @Sendable func create(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let form = try await request.decodeForm(NewBookForm.self)
        switch form.validate() {
        case .failure(let errors):
            let page = NewBookPage(context: context, form: form, errors: errors)
            return try renderer.render(page, template: "library/new", status: .unprocessableContent).response
        case .success(let (book, shelf)):
            do {
                let bookID = try await books.add(book, to: shelf, for: context.userID, finishedUnknown: true)
                return .seeOther(ActionNotice.added(bookID, to: shelf, returnTo: nil))
            } catch let duplicate as AlreadyInLibrary {
                let page = NewBookPage(context: context, form: form, existingBookID: duplicate.bookID)
                return try renderer.render(page, template: "library/new", status: .conflict).response
            }
        }
    }

    /// GET /books/:id
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        // A show's episodes are read in the page's own transaction: a second read was a hop to a database thread.
        let shown = BookPageBuilder.EpisodesShown(
            season: query["season"].flatMap { BoundedNumber.parse($0, in: ScreenLimits.seasonNumbers) },
            from: query["from"].flatMap { BoundedNumber.parse($0, in: 0...Int(Int32.max)) } ?? 0)
        let (entry, built, show) = try await pages.page(context, episodes: shown)
        var page = built
        page.open(afterSaving: query["saved"])
        if let summary = show {
            page.episodes = EpisodesSection(
                summary, bookID: entry.bookID, today: clock.today(), csrfToken: context.csrfToken,
                caughtUpOn: entry.userBook.shelf == .read ? entry.userBook.finishedAt : nil)
        }
        page.chrome.toast = try await ActionNotice.toast(
            query: query, path: Paths.book(entry.bookID),
            userID: context.userID, library: library, csrfToken: context.csrfToken, today: clock.today())
        return try renderer.render(page, template: "library/book")
    }

    /// POST /books/:id/shelf (`shelf`, optional `return_to`)
    @Sendable func move(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let entry = try await requireEntry(context)
        let form = try await request.decodeForm(MoveForm.self)
        guard let shelf = form.shelf else {
            throw HTTPError(.badRequest, message: localized("Choose Want to read, Reading, Read or Did not finish."))
        }
        let (bookID, before) = (entry.bookID, entry.userBook)
        // Read, never started: finished today, or years ago? The notice asks instead of guessing today. A book on
        // Reading is finished today, start date or not (issue 35: Goodreads exports none for Currently reading).
        let asks =
            !form.undo && shelf == .read && before.shelf != .reading && before.startedAt == nil
            && before.finishedAt == nil
        try await library.move(
            bookID: bookID, to: shelf, for: before.userId, now: clock.now(), today: clock.today(),
            leavingUnsureUndated: asks)
        if form.undo {
            try await library.setDates(
                bookID: bookID, started: form.restoreStarted, finished: form.restoreFinished, for: before.userId,
                now: clock.now())
        }
        guard shelf != before.shelf else { return .seeOther(form.returnTo ?? Paths.book(bookID)) }
        var notice = [("done", form.undo ? "moved-back" : "moved"), ("book", String(bookID))]
        if !form.undo {
            notice += [("from", before.shelf.rawValue)]
            notice += before.startedAt.map { [("was_started", $0)] } ?? []
            notice += before.finishedAt.map { [("was_finished", $0)] } ?? []
        }
        if asks { notice.append(("ask", "finished")) }
        let stays = form.returnTo.map { Self.listKeeps(bookOn: shelf, favourite: before.favourite, $0) } ?? true
        return .seeOther(
            ActionNotice.link(
                form.returnTo ?? Paths.book(bookID), adding: notice,
                anchor: form.returnTo == nil ? nil : Self.anchor(bookID, stays: stays, request)))
    }

    /// Whether the list at `path` still shows a book now on `shelf`: a shelf's own page loses it to another shelf.
    static func listKeeps(bookOn shelf: Shelf, favourite: Bool, _ path: String) -> Bool {
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if route == Paths.favourites { return favourite }
        return Shelf.allCases.allSatisfy { $0 == shelf || route != Paths.shelf($0) }
    }

    /// The card to come back to: the book's own, or when it has left the list, the card that took its place
    /// (`near`, which the card's buttons carry).
    static func anchor(_ bookID: Int64, stays: Bool, _ request: Request) -> String? {
        if stays { return "book-\(bookID)" }
        return request.uri.queryParameters["near"].flatMap { Int64($0) }.map { "book-\($0)" }
    }

    /// POST /books/:id/favourite (`favourite` = 1 or 0; toggles when absent; optional `return_to`)
    @Sendable func favourite(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let entry = try await requireEntry(context)
        let form = try await request.decodeForm(FavouriteForm.self)
        let wanted = form.favourite ?? !entry.userBook.favourite
        let bookID = entry.bookID
        try await library.setFavourite(bookID: bookID, wanted, for: entry.userBook.userId, now: clock.now())
        var notice = [("done", wanted ? "favourited" : "unfavourited"), ("book", String(bookID))]
        if form.undo { notice.append(("from", "undo")) }
        let stays = form.returnTo.map { Self.listKeeps(bookOn: entry.userBook.shelf, favourite: wanted, $0) } ?? true
        return .seeOther(
            ActionNotice.link(
                form.returnTo ?? Paths.book(bookID), adding: notice,
                anchor: form.returnTo == nil ? nil : Self.anchor(bookID, stays: stays, request)))
    }

    /// POST /books/:id/dates (`started_at`, `finished_at` as yyyy-mm-dd, either may be empty)
    @Sendable func updateDates(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let entry = try await requireEntry(context)
        let form = try await request.decodeForm(DatesForm.self)
        let (started, finished) = (form.started, form.finished)
        var errors = FieldErrors()
        if let started, !CalendarDate.isValidDay(started) {
            errors["started_at"] = localized("Use a date like 2024-03-17.")
        }
        if let finished, !CalendarDate.isValidDay(finished) {
            errors["finished_at"] = localized("Use a date like 2024-03-17.")
        }
        if errors.isEmpty, let started, let finished, finished < started {
            errors["finished_at"] = localized("The finish date is before the start date.")
        }
        guard errors.isEmpty else {
            let page = try await pages.page(
                entry, context: context, typed: .init(dates: (started ?? "", finished ?? ""), errors: errors))
            return try pages.refused(page)
        }
        try await library.setDates(
            bookID: entry.bookID, started: started, finished: finished, for: entry.userBook.userId, now: clock.now())
        return .seeOther(
            ActionNotice.link(
                form.returnTo ?? Paths.book(entry.bookID), adding: [("saved", "dates")],
                anchor: form.returnTo == nil ? "dates-heading" : "book-\(entry.bookID)"))
    }

    /// POST /books/:id/review (`rating` 0.25–5 or empty, `review`, `private_notes`): what the reader thought.
    @Sendable func updateReview(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let entry = try await requireEntry(context)
        let form = try await request.formFields()
        var change = EntryChange()
        let typed = ReviewValues(
            rating: form["rating"] ?? "", review: form["review"] ?? "", notes: form["private_notes"] ?? "",
            shared: form["review_shared"] == "1")
        var errors = FieldErrors()
        if let text = form.trimmed("rating") {
            if let rating = Double(text), EntryChange.isValidRating(rating) {
                change.rating = .set(rating)
            } else {
                errors["rating"] = localized("Choose a rating from ½ to 5 stars, or none.")
            }
        } else {
            change.rating = .set(nil)
        }
        change.review = .set(typed.review.trimmingCharacters(in: .whitespacesAndNewlines))
        change.privateNotes = .set(typed.notes.trimmingCharacters(in: .whitespacesAndNewlines))
        change.reviewShared = typed.shared
        if errors.isEmpty,
            let problems = try await library.apply(
                change, bookID: entry.bookID, for: entry.userBook.userId, now: clock.now(), today: clock.today())
        {
            errors = problems
        }
        guard errors.isEmpty else {
            let page = try await pages.page(entry, context: context, typed: .init(review: typed, errors: errors))
            return try pages.refused(page)
        }
        return .seeOther(
            ActionNotice.link(Paths.book(entry.bookID), adding: [("saved", "review")], anchor: "review-heading"))
    }

    /// GET /books/:id/remove: asks before removing.
    @Sendable func confirmRemove(_ request: Request, context: SignedInContext) async throws -> HTML {
        let entry = try await requireEntry(context)
        let photoCount = try await photos.count(ofBook: entry.bookID, userID: entry.userBook.userId)
        let page = RemoveBookPage(
            chrome: PageChrome(
                title: localized("Remove {{title}}?", ["title": entry.book.title]), context: context, tab: .shelves),
            card: BookCard(LibraryItem(entry)), removePath: Paths.bookRemove(entry.bookID),
            photoWarning: photoCount == 0
                ? nil
                : localized(
                    one: "Your photo of it will be deleted too.",
                    other: "Your {{count}} photos of it will be deleted too.", count: photoCount))
        return try renderer.render(page, template: "library/remove")
    }

    /// POST /books/:id/remove
    @Sendable func remove(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await requireEntry(context)
        if let removed = try await library.remove(bookID: entry.bookID, for: entry.userBook.userId) {
            media.remove(removed.flatMap(\.files))
        }
        return .seeOther(Paths.shelves)
    }

    /// The signed-in user's entry for `:id`; anything else (unknown, malformed, someone else's) is a 404.
    func requireEntry(_ context: SignedInContext) async throws -> LibraryEntry {
        try await pages.requireEntry(context)
    }
}
