import Foundation
import Hummingbird

/// Reading progress on the web: "I'm on page N" from a book page or the home page, and the journal's entries
/// edited and deleted. Every id is the signed-in person's own; anything else is a 404.
struct JournalController: Sendable {
    let pages: BookPageBuilder
    var library: LibraryStore { pages.library }
    let journal: ReadingJournal
    var clock: AppClock { pages.clock }
    var renderer: PageRenderer { pages.renderer }

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.bookProgress.routerPath, use: add)
        router.post(Route.bookReadAgain.routerPath, use: readAgain)
        router.get(Route.journalEntry.routerPath, use: edit)
        router.post(Route.journalEntry.routerPath, use: update)
        router.get(Route.journalEntryDelete.routerPath, use: confirmDelete)
        router.post(Route.journalEntryDelete.routerPath, use: delete)
    }

    /// POST /books/:id/progress (`page` or `percent`, `read_on`, `note`, optional `return_to`)
    @Sendable func add(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        guard entry.book.kind.hasPages else {
            throw HTTPError(
                .unprocessableContent,
                message: localized("A film or TV show has no pages to note. Open it to mark it watched."))
        }
        var request = request
        let form = try await request.formFields()
        let typed = Self.typed(form)
        let returnTo = safeRelativePath(form.trimmed("return_to"))
        guard entry.userBook.shelf != .read else {
            var errors = FieldErrors()
            errors["page"] = localized(
                "You finished this book. Choose “Read it again” to keep a journal of a new read.")
            return try await refused(entry, context: context, typed: typed, errors: errors)
        }
        switch values(typed, for: entry) {
        case .failure(let errors):
            return try await refused(entry, context: context, typed: typed, errors: errors)
        case .success(let values):
            _ = try await journal.add(values, bookID: entry.bookID, userID: context.userID, now: clock.now())
            let bookID = entry.bookID
            // At the last page (or 100 %) the notice offers to mark the book read instead of only saying "saved".
            let atTheEnd = values.percent == 100 || (values.page != nil && values.page == entry.book.pageCount)
            return .seeOther(
                ActionNotice.link(
                    returnTo ?? Paths.book(bookID),
                    adding: atTheEnd ? [("done", "last-page"), ("book", String(bookID))] : [("saved", "progress")],
                    anchor: returnTo == nil ? "progress-heading" : "progress-\(bookID)"))
        }
    }

    /// POST /books/:id/read-again: a new read of a finished book starts today; the finished one is kept.
    @Sendable func readAgain(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        if entry.book.kind == .movie { return try await watchAgain(entry, request: request, context: context) }
        if entry.book.kind == .show {
            // A new viewing of a show watched to the end; one still being watched goes on where it is.
            do {
                guard
                    try await library.watchShowAgain(
                        bookID: entry.bookID, for: context.userID, today: clock.today(), now: clock.now())
                else { return .seeOther(Paths.book(entry.bookID)) }
            } catch is NotWatchedToTheEnd {
                return .seeOther(Paths.book(entry.bookID))
            }
            return .seeOther(
                ActionNotice.link(Paths.book(entry.bookID), adding: [("saved", "watching-again")], anchor: "episodes"))
        }
        let bookID = entry.bookID
        guard
            try await library.readAgain(bookID: bookID, for: context.userID, now: clock.now(), today: clock.today())
        else {
            // Not finished (yet): nothing to read again; the page shows where the book is.
            return .seeOther(Paths.book(bookID))
        }
        return .seeOther(
            ActionNotice.link(Paths.book(bookID), adding: [("saved", "read-again")], anchor: "progress-heading"))
    }

    /// GET /journal/:entryID
    @Sendable func edit(_ request: Request, context: SignedInContext) async throws -> HTML {
        let (entry, book) = try await requireEntry(context)
        return try renderer.render(
            JournalEntryPage(context: context, entry: entry, book: book), template: "library/journal-entry")
    }

    /// POST /journal/:entryID (`read_on`, `page` or `percent`, `note`)
    @Sendable func update(_ request: Request, context: SignedInContext) async throws -> Response {
        let (entry, book) = try await requireEntry(context)
        var request = request
        let typed = Self.typed(try await request.formFields())
        switch values(typed, for: book, keepingDay: entry.readOn) {
        case .failure(let errors):
            let page = JournalEntryPage(context: context, entry: entry, book: book, typed: typed, errors: errors)
            return try renderer.render(page, template: "library/journal-entry", status: .unprocessableContent)
                .response
        case .success(let values):
            _ = try await journal.update(entry.id, with: values, userID: context.userID, now: clock.now())
            return .seeOther(
                ActionNotice.link(Paths.book(book.bookID), adding: [("saved", "journal")], anchor: "journal-heading"))
        }
    }

    /// GET /journal/:entryID/delete: asks first.
    @Sendable func confirmDelete(_ request: Request, context: SignedInContext) async throws -> HTML {
        let (entry, book) = try await requireEntry(context)
        let amount =
            entry.percent.map { "\(ProgressValues.percentText($0)) %" }
            ?? localized("page {{page}}", ["page": String(entry.page ?? 0)])
        let page = JournalDeletePage(
            chrome: PageChrome(title: localized("Delete this journal entry?"), context: context, tab: .shelves),
            bookTitle: book.book.title, summary: "\(entry.readOn): \(amount)",
            deletePath: Paths.journalEntryDelete(entry.id), keepPath: Paths.journalEntry(entry.id))
        return try renderer.render(page, template: "library/journal-delete")
    }

    /// POST /journal/:entryID/delete
    @Sendable func delete(_ request: Request, context: SignedInContext) async throws -> Response {
        let (entry, book) = try await requireEntry(context)
        _ = try await journal.delete(entry.id, userID: context.userID, now: clock.now())
        return .seeOther(
            ActionNotice.link(
                Paths.book(book.bookID), adding: [("saved", "journal-deleted")], anchor: "progress-heading"))
    }

    /// `keepingDay`: an edited entry's day, kept when the date field is cleared.
    private func values(_ typed: JournalSection.Typed, for entry: LibraryEntry, keepingDay: String? = nil)
        -> Result<ProgressValues, FieldErrors>
    {
        ProgressValues.parse(
            readOn: typed.readOn, page: typed.page, percent: typed.percent, note: typed.note,
            pageCount: entry.book.pageCount,
            byPercent: entry.userBook.readsByPercent,
            keepingDay: keepingDay, today: clock.today())
    }

    private func refused(
        _ entry: LibraryEntry, context: SignedInContext, typed: JournalSection.Typed, errors: FieldErrors
    ) async throws -> Response {
        let page = try await pages.page(entry, context: context, typed: .init(progress: typed, errors: errors))
        return try pages.refused(page)
    }

    /// The signed-in person's journal entry `:entryID` and its book; a 404 for anything else.
    private func requireEntry(_ context: SignedInContext) async throws -> (JournalEntry, LibraryEntry) {
        guard let id = BoundedNumber.id(context.parameters.get("entryID")),
            let (entry, bookID) = try await journal.entry(id, of: context.userID)
        else { throw AppError.notFound(localized("There is no such journal entry. It may have been deleted.")) }
        return (entry, try await library.requireEntry(bookID: bookID, of: context.userID))
    }

    static func typed(_ form: FormFields) -> JournalSection.Typed {
        JournalSection.Typed(
            readOn: form["read_on"] ?? "", page: form["page"] ?? "", percent: form["percent"] ?? "",
            note: form["note"] ?? "")
    }

    /// A film's "Watched it again on ‹day›" (`watched_on`, today when empty): a new dated viewing, the ones before
    /// kept. A day that is not a date, or later than today, shows the page again with the day typed and why.
    private func watchAgain(_ entry: LibraryEntry, request: Request, context: SignedInContext) async throws
        -> Response
    {
        var request = request
        let today = clock.today()
        let typed = (try await request.formFields()).trimmed("watched_on") ?? ""
        let day = typed.isEmpty ? today : typed
        guard CalendarDate.isValidDay(day), day <= today else {
            var errors = FieldErrors()
            errors["watched_on"] = localized(
                "Enter the day you watched it, like {{today}}, no later than today.", ["today": today])
            let page = try await pages.page(
                entry, context: context,
                typed: BookPageBuilder.Typed(watchDay: String(typed.prefix(40)), errors: errors))
            return try pages.refused(page)
        }
        guard try await library.watchAgain(bookID: entry.bookID, on: day, for: context.userID, now: clock.now())
        else {
            // Not on Watched (yet): the page shows where the film is.
            return .seeOther(Paths.book(entry.bookID))
        }
        return .seeOther(ActionNotice.link(Paths.book(entry.bookID), adding: [("saved", "watched-again")]))
    }
}
