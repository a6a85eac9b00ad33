import Foundation
import Hummingbird

/// Lists in the Reader API's style (issue 24): the caller's lists, made, renamed and deleted; books added, moved and
/// taken off. The same rules as the pages (`ListForm`, `ReadingListStore`); another person's list or book is a 404.
struct ListAPIController: Sendable {
    let lists: ReadingListStore
    let library: LibraryStore

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.lists.routerPath, use: index)
        router.post(APIRoute.lists.routerPath, use: create)
        router.get(APIRoute.list.routerPath, use: show)
        router.patch(APIRoute.list.routerPath, use: update)
        router.delete(APIRoute.list.routerPath, use: delete)
        router.post(APIRoute.listBooks.routerPath, use: addBook)
        router.patch(APIRoute.listBook.routerPath, use: moveBook)
        router.delete(APIRoute.listBook.routerPath, use: removeBook)
    }

    struct ListBody: Decodable, Sendable {
        let name: String?
        let description: String?
    }

    struct BookBody: Decodable, Sendable {
        let bookID: Int64?

        enum CodingKeys: String, CodingKey {
            case bookID = "book_id"
        }
    }

    struct PlaceBody: Decodable, Sendable {
        let position: Int?
    }

    struct ListJSON: Encodable {
        let id: Int64
        let name: String
        let description: String?
        let bookCount: Int

        enum CodingKeys: String, CodingKey {
            case id, name, description
            case bookCount = "book_count"
        }

        init(_ list: ReadingList) {
            id = list.id
            name = list.name
            description = list.description
            bookCount = list.bookCount
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(description, forKey: .description)
            try container.encode(bookCount, forKey: .bookCount)
        }
    }

    struct Lists: Encodable {
        let lists: [ListJSON]
    }

    struct OneList: Encodable {
        let list: ListJSON
    }

    struct ListBooks: Encodable {
        struct Book: Encodable {
            let id: Int64
            let title: String
            let author: String
            let position: Int
            let shelfID: Int
            let shelfName: String
            let imageURL: String?

            enum CodingKeys: String, CodingKey {
                case id, title, author, position
                case shelfID = "shelf_id"
                case shelfName = "shelf_name"
                case imageURL = "image_url"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(title, forKey: .title)
                try container.encode(author, forKey: .author)
                try container.encode(position, forKey: .position)
                try container.encode(shelfID, forKey: .shelfID)
                try container.encode(shelfName, forKey: .shelfName)
                try container.encode(imageURL, forKey: .imageURL)
            }
        }

        let list: ListJSON
        let books: [Book]
        /// How many books match the filters (all the list's without any).
        let matchingCount: Int
        let page: Int

        enum CodingKeys: String, CodingKey {
            case list, books, page
            case matchingCount = "matching_count"
        }
    }

    struct Placed: Encodable {
        let bookID: Int64
        let position: Int

        enum CodingKeys: String, CodingKey {
            case position
            case bookID = "book_id"
        }
    }

    /// GET /api/v1/lists
    @Sendable func index(_ request: Request, context: APIContext) async throws -> Response {
        JSONBody.response(Lists(lists: try await lists.lists(of: context.userID).map(ListJSON.init)))
    }

    /// POST /api/v1/lists `{"name": …, "description": …}`: 201 with the list; 409 for a name already used.
    @Sendable func create(_ request: Request, context: APIContext) async throws -> Response {
        let body = try await JSONBody.decode(ListBody.self, from: request)
        let (name, description) = try validated(ListForm(name: body.name ?? "", description: body.description ?? ""))
        let id = try await storing { try await lists.create(name: name, description: description, for: context.userID) }
        let list = try await lists.requireList(id, of: context.userID)
        return JSONBody.response(OneList(list: ListJSON(list)), status: .created)
    }

    /// GET /api/v1/lists/:listID[?page=&filters…]: the list's books in its order, 60 a page, narrowed by the same
    /// filters as `GET /api/v1/books`.
    @Sendable func show(_ request: Request, context: APIContext) async throws -> Response {
        let list = try await requireList(context)
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let page = query["page"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.listPage) } ?? 1
        let (items, total) = try await lists.items(
            of: list.id, for: context.userID, page: page, narrowedBy: LibraryFilters(query: query))
        let books = items.map { entry in
            ListBooks.Book(
                id: entry.item.bookID, title: entry.item.title, author: entry.item.authors, position: entry.position,
                shelfID: entry.item.shelf.readerID, shelfName: entry.item.shelf.readerName,
                imageURL: entry.item.coverPath.map { BookCover.url(for: $0) })
        }
        return JSONBody.response(ListBooks(list: ListJSON(list), books: books, matchingCount: total, page: page))
    }

    /// PATCH /api/v1/lists/:listID `{"name": …, "description": …}`: either may be left out to keep it.
    @Sendable func update(_ request: Request, context: APIContext) async throws -> Response {
        let list = try await requireList(context)
        let body = try await JSONBody.decode(ListBody.self, from: request)
        let (name, description) = try validated(
            ListForm(name: body.name ?? list.name, description: body.description ?? list.description ?? ""))
        _ = try await storing {
            try await lists.update(list.id, name: name, description: description, for: context.userID)
        }
        return JSONBody.response(OneList(list: ListJSON(try await lists.requireList(list.id, of: context.userID))))
    }

    /// DELETE /api/v1/lists/:listID: 204; the books stay in the library.
    @Sendable func delete(_ request: Request, context: APIContext) async throws -> Response {
        let list = try await requireList(context)
        _ = try await lists.delete(list.id, for: context.userID)
        return Response(status: .noContent)
    }

    /// POST /api/v1/lists/:listID/books `{"book_id": …}`: 201 with its place (at the end, or where it already was).
    @Sendable func addBook(_ request: Request, context: APIContext) async throws -> Response {
        let list = try await requireList(context)
        let body = try await JSONBody.decode(BookBody.self, from: request)
        guard let bookID = body.bookID else {
            throw HTTPError(
                .unprocessableContent, message: "book_id is required: a book of yours, as /api/v1/books lists it.")
        }
        let entry = try await library.requireEntry(bookID: bookID, of: context.userID)
        let place = try await lists.add(bookID: entry.bookID, to: list.id, for: context.userID)
        return JSONBody.response(Placed(bookID: entry.bookID, position: place ?? 0), status: .created)
    }

    /// PATCH /api/v1/lists/:listID/books/:id `{"position": n}`: moves the book to place n (1 to the list's length),
    /// the books between shifting by one.
    @Sendable func moveBook(_ request: Request, context: APIContext) async throws -> Response {
        let list = try await requireList(context)
        let body = try await JSONBody.decode(PlaceBody.self, from: request)
        guard let position = body.position, (1...max(list.bookCount, 1)).contains(position) else {
            throw HTTPError(
                .unprocessableContent,
                message: "position must be a place from 1 to \(list.bookCount), the number of books on the list.")
        }
        guard let bookID = BoundedNumber.id(context.parameters.get("id")),
            let place = try await lists.move(bookID: bookID, in: list.id, .to(position), for: context.userID)
        else { throw HTTPError(.notFound, message: localized("That book is not on this list.")) }
        return JSONBody.response(Placed(bookID: bookID, position: place))
    }

    /// DELETE /api/v1/lists/:listID/books/:id: 204; the book stays in the library.
    @Sendable func removeBook(_ request: Request, context: APIContext) async throws -> Response {
        let list = try await requireList(context)
        guard let bookID = BoundedNumber.id(context.parameters.get("id")),
            try await lists.remove(bookID: bookID, from: list.id, for: context.userID)
        else { throw HTTPError(.notFound, message: localized("That book is not on this list.")) }
        return Response(status: .noContent)
    }

    private func requireList(_ context: APIContext) async throws -> ReadingList {
        guard let id = BoundedNumber.id(context.parameters.get("listID")),
            let list = try await lists.list(id, of: context.userID)
        else { throw HTTPError(.notFound, message: localized("There is no such list.")) }
        return list
    }

    private func validated(_ form: ListForm) throws -> (name: String, description: String?) {
        switch form.validated() {
        case .success(let values): return values
        case .failure(let errors): throw HTTPError(.unprocessableContent, message: errors.summary)
        }
    }

    /// Runs a store change, answering its refusals as the API does.
    private func storing<T>(_ change: () async throws -> T) async throws -> T {
        do {
            return try await change()
        } catch ReadingListStore.Failure.duplicateName {
            throw HTTPError(.conflict, message: localized("You already have a list of that name."))
        } catch ReadingListStore.Failure.tooManyLists {
            throw HTTPError(
                .conflict,
                message: localized(
                    "You have {{count}} lists, as many as Shelfed keeps.", ["count": String(ReadingListStore.maxLists)])
            )
        }
    }
}
