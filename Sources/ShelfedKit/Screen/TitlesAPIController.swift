import Foundation
import GRDB
import Hummingbird

/// `/api/v1/titles…` (DESIGN §17): films and shows for Shelfed's own clients, with the book routes' keys, limits,
/// errors and 404 for another person's id (or a book's: the book routes are where books are).
struct TitlesAPIController: Sendable {
    let titles: TitleSearchService
    let library: LibraryStore
    let books: LibraryService
    let media: MediaStore
    let pageWait: Duration
    let clock: AppClock

    static let maxLimit = 100

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.titleSearch.routerPath, use: search)
        router.get(APIRoute.titleShelves.routerPath, use: shelves)
        router.get(APIRoute.titles.routerPath, use: list)
        router.post(APIRoute.titles.routerPath, use: create)
        router.get(APIRoute.title.routerPath, use: show)
        router.patch(APIRoute.title.routerPath, use: update)
        router.delete(APIRoute.title.routerPath, use: delete)
        router.get(APIRoute.titleViewings.routerPath, use: viewings)
        router.post(APIRoute.titleViewings.routerPath, use: watchAgain)
        router.get(APIRoute.titleEpisodes.routerPath, use: episodes)
        router.post(APIRoute.titleEpisodes.routerPath, use: markEpisodes)
    }

    /// GET /api/v1/titles/search?q=&kind=movie|show
    @Sendable func search(_ request: Request, context: APIContext) async throws -> Response {
        let query = request.uri.queryParameters
        let text = query["q"].map(String.init)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !text.isEmpty else {
            throw HTTPError(.badRequest, message: localized("Send the words to search for as q."))
        }
        let kind = try Self.kind(query["kind"].map(String.init))
        do {
            let answer = try await resultWithin(pageWait) { [titles, pageWait] in
                try await titles.search(text, kind: kind, within: pageWait)
            }
            return JSONBody.response(
                TitleJSON.SearchAnswer(results: answer.results.map(TitleJSON.Result.init), source: answer.source))
        } catch let failure as UpstreamFailure {
            throw HTTPError(failure.pageStatus, message: TitleSearchController.message(for: failure))
        }
    }

    /// GET /api/v1/titles/shelves?kind=
    @Sendable func shelves(_ request: Request, context: APIContext) async throws -> Response {
        let kinds = try Self.kinds(request.uri.queryParameters["kind"].map(String.init))
        let counts = try await library.db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT user_book.shelf, COUNT(*) FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND book.kind IN (SELECT value FROM json_each(?))
                    GROUP BY user_book.shelf
                    """, arguments: [context.userID, CatalogWriter.jsonArray(kinds.map(\.rawValue))]
            ).reduce(into: [String: Int]()) { $0[$1[0]] = $1[1] }
        }
        struct Answer: Encodable { let shelves: [TitleJSON.ShelfCount] }
        return JSONBody.response(
            Answer(
                shelves: [Shelf.wantToRead, .reading, .read, .didNotFinish].map { shelf in
                    TitleJSON.ShelfCount(
                        id: shelf.titleAPIID, name: shelf.title(for: .movie), count: counts[shelf.rawValue] ?? 0)
                }))
    }

    /// GET /api/v1/titles?kind=&shelf=&limit=&offset=: newest added first.
    @Sendable func list(_ request: Request, context: APIContext) async throws -> Response {
        let query = request.uri.queryParameters
        let kinds = try Self.kinds(query["kind"].map(String.init))
        let shelf = try query["shelf"].map { text -> Shelf in
            guard let shelf = Shelf(titleAPIID: String(text)) else {
                throw HTTPError(.badRequest, message: "shelf must be want_to_watch, watching, watched or stopped.")
            }
            return shelf
        }
        let limit = try Self.number(query["limit"], name: "limit", in: 1...Self.maxLimit) ?? 50
        let offset = try Self.number(query["offset"], name: "offset", in: 0...1_000_000) ?? 0
        let (rows, total) = try await library.db.read { db in
            let filter = """
                FROM user_book JOIN book ON book.id = user_book.book_id
                WHERE user_book.user_id = ? AND book.kind IN (SELECT value FROM json_each(?))
                    AND (? IS NULL OR user_book.shelf = ?)
                """
            let arguments: StatementArguments = [
                context.userID, CatalogWriter.jsonArray(kinds.map(\.rawValue)), shelf?.rawValue, shelf?.rawValue,
            ]
            let ids = try Int64.fetchAll(
                db,
                sql: "SELECT book.id " + filter + " ORDER BY user_book.added_at DESC, book.id DESC LIMIT ? OFFSET ?",
                arguments: arguments + [limit, offset])
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) " + filter, arguments: arguments) ?? 0
            return (try ids.compactMap { try Self.title($0, of: context.userID, db) }, total)
        }
        return JSONBody.response(TitleJSON.TitleList(titles: rows, total: total))
    }

    /// POST /api/v1/titles: `{"kind", "ids": {…}}` from a provider, or `{"kind", "title", "year"}` by hand; optional
    /// `shelf`. 201 with the title; 409 when the person has it already.
    @Sendable func create(_ request: Request, context: APIContext) async throws -> Response {
        let body = try await JSONBody.decode(NewTitleRequest.self, from: request)
        guard let kind = TitleKind(rawValue: body.kind), kind != .book else {
            throw HTTPError(.unprocessableContent, message: "kind must be movie or show.")
        }
        let shelf =
            try body.shelf.map { text -> Shelf in
                guard let shelf = Shelf(titleAPIID: text) else {
                    throw HTTPError(
                        .unprocessableContent, message: "shelf must be want_to_watch, watching, watched or stopped.")
                }
                return shelf
            } ?? .wantToRead
        let bookID: Int64
        do {
            if let ids = body.ids {
                let (source, id) = try Self.provider(
                    ids, kind: kind, source: body.source.flatMap(ScreenSource.init(rawValue:)),
                    hasToken: try await titles.tokens.current() != nil)
                bookID = try await books.addScreenTitle(
                    source: source, id: id, kind: kind, to: shelf, for: context.userID, titles: titles,
                    finishedUnknown: false)
            } else {
                bookID = try await books.add(try Self.byHand(body, kind: kind), to: shelf, for: context.userID)
            }
        } catch let duplicate as AlreadyInLibrary {
            throw HTTPError(
                .conflict,
                message: localized(
                    "This title is already in your library, as title {{id}}.", ["id": String(duplicate.bookID)]))
        } catch let failure as UpstreamFailure {
            if failure == .notFound {
                throw HTTPError(.notFound, message: localized("The provider does not know that title."))
            }
            throw HTTPError(failure.pageStatus, message: TitleSearchController.message(for: failure))
        }
        return JSONBody.response(try await requireTitle(bookID, context), status: .created)
    }

    /// GET /api/v1/titles/:id
    @Sendable func show(_ request: Request, context: APIContext) async throws -> Response {
        JSONBody.response(try await requireTitle(try Self.id(context), context))
    }

    /// PATCH /api/v1/titles/:id (`shelf`, `rating`, `favourite`): nothing is written when any field is invalid.
    @Sendable func update(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try Self.id(context)
        _ = try await requireTitle(bookID, context)
        let body = try await JSONBody.decode(TitleChangeRequest.self, from: request)
        var change = EntryChange()
        if let shelf = body.shelf {
            guard let value = Shelf(titleAPIID: shelf) else {
                throw HTTPError(
                    .unprocessableContent, message: "shelf must be want_to_watch, watching, watched or stopped.")
            }
            change.shelf = value
        }
        change.favourite = body.favourite
        switch body.rating {
        case .keep: break
        case .set(let rating?):
            guard TitleJSON.isValidRating(rating) else {
                throw HTTPError(.unprocessableContent, message: "rating must be 0.5 to 5 in half steps, or null.")
            }
            change.rating = .set(rating)
        case .set(nil): change.rating = .set(nil)
        }
        guard
            let problems = try await library.apply(
                change, bookID: bookID, for: context.userID, now: clock.now(), today: clock.today())
        else { throw Self.notFound }
        guard problems.isEmpty else { throw HTTPError(.unprocessableContent, message: problems.summary) }
        return JSONBody.response(try await requireTitle(bookID, context))
    }

    /// DELETE /api/v1/titles/:id: removes it and the person's photos and viewings of it; 204.
    @Sendable func delete(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try Self.id(context)
        _ = try await requireTitle(bookID, context)
        guard let removed = try await library.remove(bookID: bookID, for: context.userID) else { throw Self.notFound }
        media.remove(removed.flatMap(\.files))
        return Response(status: .noContent)
    }

    func requireTitle(_ bookID: Int64, _ context: APIContext) async throws -> TitleJSON.Title {
        guard let title = try await library.db.read({ db in try Self.title(bookID, of: context.userID, db) }) else {
            throw Self.notFound
        }
        return title
    }

    /// The person's film or show `bookID`; nil for a book, someone else's title, or none.
    static func title(_ bookID: Int64, of userID: Int64, _ db: Database) throws -> TitleJSON.Title? {
        guard let entry = try LibraryStore.entry(bookID: bookID, of: userID, db), entry.book.kind != .book else {
            return nil
        }
        let ids = try String.fetchOne(db, sql: "SELECT external_ids FROM book WHERE id = ?", arguments: [bookID])
        let decoded = ids.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
        return TitleJSON.Title(entry, externalIDs: decoded)
    }

    static let notFound = HTTPError(.notFound, message: localized("This film or show is not in your library."))

    static func id(_ context: APIContext) throws -> Int64 {
        guard let id = BoundedNumber.id(context.parameters.get("id")) else { throw notFound }
        return id
    }

    static func kind(_ text: String?) throws -> TitleKind? {
        guard let text else { return nil }
        guard let kind = TitleKind(rawValue: text), kind != .book else {
            throw HTTPError(.badRequest, message: "kind must be movie or show.")
        }
        return kind
    }

    static func kinds(_ text: String?) throws -> [TitleKind] {
        try kind(text).map { [$0] } ?? [.movie, .show]
    }

    static func number(_ text: Substring?, name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text else { return nil }
        guard let number = BoundedNumber.parse(text, in: range) else {
            throw HTTPError(
                .badRequest, message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// Which provider to ask: the one a search result names (`source`), else TMDB's id when the household has a
    /// token, else TVmaze's for a show or Wikidata's for a film (a Wikidata film carries a TMDB id too, which no
    /// keyless server can use).
    static func provider(_ ids: TitleJSON.IDs, kind: TitleKind, source: ScreenSource? = nil, hasToken: Bool) throws
        -> (ScreenSource, String)
    {
        let tmdb = ids.tmdb.flatMap { $0 > 0 ? String($0) : nil }
        let tvmaze = kind == .show ? ids.tvmaze.flatMap { $0 > 0 ? String($0) : nil } : nil
        let wikidata = kind == .movie ? ids.wikidata : nil
        let chosen: (ScreenSource, String)? =
            switch source {
            case .tmdb: tmdb.map { (.tmdb, $0) }
            case .tvmaze: tvmaze.map { (.tvmaze, $0) }
            case .wikidata: wikidata.map { (.wikidata, $0) }
            case nil:
                (hasToken ? tmdb.map { (.tmdb, $0) } : nil) ?? tvmaze.map { (.tvmaze, $0) }
                    ?? wikidata.map { (.wikidata, $0) } ?? tmdb.map { (.tmdb, $0) }
            }
        guard let chosen else {
            throw HTTPError(
                .unprocessableContent,
                message:
                    "ids must name the title at TMDB, TVmaze (a show) or Wikidata (a film), as search returns them.")
        }
        return chosen
    }

    /// A title typed by hand: validated as the add form validates it.
    static func byHand(_ body: NewTitleRequest, kind: TitleKind) throws -> NewBook {
        var form = NewBookForm()
        form.kind = kind.rawValue
        form.title = body.title ?? ""
        form.publishedDate = body.year.map(String.init) ?? ""
        switch form.validate() {
        case .failure(let errors): throw HTTPError(.unprocessableContent, message: errors.summary)
        case .success(let (book, _)): return book
        }
    }
}
