import Foundation
import Hummingbird

/// Reading progress and the journal for Shelfed's own clients, in the Reader style (DESIGN §6): the same rules as
/// the pages (`ProgressValues`), the same journal. Another person's book or entry id is a 404.
struct ProgressAPIController: Sendable {
    let library: LibraryStore
    let journal: ReadingJournal
    let clock: AppClock

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.bookProgress.routerPath, use: list)
        router.post(APIRoute.bookProgress.routerPath, use: create)
        router.patch(APIRoute.progressEntry.routerPath, use: update)
        router.delete(APIRoute.progressEntry.routerPath, use: delete)
        router.post(APIRoute.bookReadAgain.routerPath, use: readAgain)
    }

    /// POST /api/v1/books/:id/read-again: a new read starts today, the finished one kept; 409 unless on Read.
    @Sendable func readAgain(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await requireBook(context)
        guard
            try await library.readAgain(
                bookID: entry.bookID, for: context.userID, now: clock.now(), today: clock.today())
        else { throw HTTPError(.conflict, message: localized("Only a book on the Read shelf can be read again.")) }
        let updated = try await library.requireEntry(bookID: entry.bookID, of: context.userID)
        return JSONBody.response(ReaderAPIController.BookResponse(book: ReaderBookDetail(updated)))
    }

    /// `{"page": 120}` or `{"percent": 45.5}`, with an optional `read_on` (`yyyy-mm-dd`, today when absent) and
    /// `note`.
    struct Body: Decodable, Sendable {
        let page: Int?
        let percent: Double?
        let readOn: String?
        let note: String?

        enum CodingKeys: String, CodingKey {
            case page, percent, note
            case readOn = "read_on"
        }
    }

    struct Entry: Encodable {
        let id: Int64
        let bookID: Int64
        let readOn: String
        let page: Int?
        let percent: Double?
        let note: String?

        enum CodingKeys: String, CodingKey {
            case id, page, percent, note
            case bookID = "book_id"
            case readOn = "read_on"
        }

        init(_ entry: JournalEntry, bookID: Int64) {
            id = entry.id
            self.bookID = bookID
            readOn = entry.readOn
            page = entry.page
            percent = entry.percent
            note = entry.note
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(bookID, forKey: .bookID)
            try container.encode(readOn, forKey: .readOn)
            try container.encode(page, forKey: .page)
            try container.encode(percent, forKey: .percent)
            try container.encode(note, forKey: .note)
        }
    }

    struct Progress: Encodable {
        let page: Int?
        let percent: Double?
        let pageCount: Int?
        /// 0…1; null when there is nothing to measure against.
        let fraction: Double?
        let byPercent: Bool

        enum CodingKeys: String, CodingKey {
            case page, percent, fraction
            case pageCount = "page_count"
            case byPercent = "by_percent"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(page, forKey: .page)
            try container.encode(percent, forKey: .percent)
            try container.encode(pageCount, forKey: .pageCount)
            try container.encode(fraction, forKey: .fraction)
            try container.encode(byPercent, forKey: .byPercent)
        }
    }

    struct Journal: Encodable {
        let progress: Progress
        let entries: [Entry]
        let entryCount: Int

        enum CodingKeys: String, CodingKey {
            case progress, entries
            case entryCount = "entry_count"
        }
    }

    /// GET /api/v1/books/:id/progress: where the reader is and the journal, newest first (the latest 100).
    @Sendable func list(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await requireBook(context)
        return JSONBody.response(try await journalAnswer(entry))
    }

    /// POST /api/v1/books/:id/progress: 201 with the journal as it now is.
    @Sendable func create(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await requireBook(context)
        let body = try await JSONBody.decode(Body.self, from: request)
        guard entry.userBook.shelf != .read else {
            throw HTTPError(
                .conflict,
                message: localized(
                    "This book is on the Read shelf. Move it to Reading to keep a journal of a new read."))
        }
        let values = try values(body, for: entry)
        _ = try await journal.add(values, bookID: entry.bookID, userID: context.userID, now: clock.now())
        let updated = try await library.requireEntry(bookID: entry.bookID, of: context.userID)
        return JSONBody.response(try await journalAnswer(updated), status: .created)
    }

    /// PATCH /api/v1/progress/:entryID: the whole entry again (page or percent, read_on, note).
    @Sendable func update(_ request: Request, context: APIContext) async throws -> Response {
        let (entry, book) = try await requireEntry(context)
        let body = try await JSONBody.decode(Body.self, from: request)
        _ = try await journal.update(
            entry.id, with: try values(body, for: book, keepingDay: entry.readOn), userID: context.userID,
            now: clock.now())
        guard let (changed, bookID) = try await journal.entry(entry.id, of: context.userID) else {
            throw HTTPError(.notFound, message: localized("There is no such journal entry."))
        }
        return JSONBody.response(Entry(changed, bookID: bookID))
    }

    /// DELETE /api/v1/progress/:entryID: 204.
    @Sendable func delete(_ request: Request, context: APIContext) async throws -> Response {
        let (entry, _) = try await requireEntry(context)
        _ = try await journal.delete(entry.id, userID: context.userID, now: clock.now())
        return Response(status: .noContent)
    }

    /// `keepingDay`: an edited entry's day, kept when the body gives none.
    private func values(_ body: Body, for entry: LibraryEntry, keepingDay: String? = nil) throws -> ProgressValues {
        let result = ProgressValues.parse(
            readOn: body.readOn, page: body.page.map(String.init),
            // Written out in plain digits (a JSON number may arrive as 1e-05), which is all the form's parser takes.
            percent: body.percent.map { String(format: "%.6f", $0) },
            note: body.note, pageCount: entry.book.pageCount,
            byPercent: entry.userBook.readsByPercent,
            keepingDay: keepingDay, today: clock.today())
        switch result {
        case .success(let values): return values
        case .failure(let errors): throw HTTPError(.unprocessableContent, message: errors.summary)
        }
    }

    private func journalAnswer(_ entry: LibraryEntry) async throws -> Journal {
        let (entries, total) = try await journal.entries(of: entry.userBookID)
        let progress = ReadingProgress(
            page: entry.userBook.currentPage, percent: entry.userBook.currentPercent, pageCount: entry.book.pageCount)
        return Journal(
            progress: Progress(
                page: progress.page, percent: progress.percent, pageCount: progress.pageCount,
                fraction: progress.fraction,
                byPercent: entry.userBook.readsByPercent),
            entries: entries.map { Entry($0, bookID: entry.bookID) }, entryCount: total)
    }

    private func requireBook(_ context: APIContext) async throws -> LibraryEntry {
        try await library.requireBookEntry(bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
    }

    private func requireEntry(_ context: APIContext) async throws -> (JournalEntry, LibraryEntry) {
        guard let id = BoundedNumber.id(context.parameters.get("entryID")),
            let (entry, bookID) = try await journal.entry(id, of: context.userID)
        else { throw HTTPError(.notFound, message: localized("There is no such journal entry.")) }
        return (entry, try await library.requireBookEntry(bookID: bookID, of: context.userID))
    }
}
