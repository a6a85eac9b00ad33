import Foundation
import Hummingbird

/// The Reader app's contract (DESIGN §6): a key per device from email and password, then the shelves and books.
struct ReaderAPIController: Sendable {
    let signIn: SignInService
    let keys: APIKeyStore
    let library: LibraryStore
    let now: @Sendable () -> Date

    func addPublicRoutes(to router: RouterGroup<AppRequestContext>) {
        router.post(APIRoute.sessions.routerPath, use: createSession)
    }

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.shelves.routerPath, use: shelves)
        router.get(APIRoute.shelf.routerPath, use: shelf)
        router.get(APIRoute.books.routerPath, use: books)
        router.get(APIRoute.book.routerPath, use: book)
    }

    struct SessionRequest: Decodable {
        let email: String
        let password: String
        let deviceName: String?

        enum CodingKeys: String, CodingKey {
            case email, password
            case deviceName = "device_name"
        }
    }

    struct SessionResponse: Encodable {
        let userID: Int64
        let apiKey: String

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case apiKey = "api_key"
        }
    }

    /// POST /api/v1/sessions: a new key for one device, shown this once.
    @Sendable func createSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(SessionRequest.self, from: request)
        guard
            let user = try await signIn.user(
                login: body.email.trimmingCharacters(in: .whitespaces), password: body.password,
                address: context.clientAddress),
            let userID = user.id
        else {
            // DESIGN §6 pins these words (the Reader app may compare them), so they are never translated.
            throw HTTPError(.unauthorized, message: "Invalid credentials")
        }
        let label = body.deviceName ?? request.headers[.userAgent] ?? ""
        let key = try await keys.create(for: userID, label: label, now: now())
        context.logger.info("Made an API key for \(user.username)")
        return JSONBody.response(SessionResponse(userID: userID, apiKey: key))
    }

    struct ShelvesResponse: Encodable {
        struct Entry: Encodable {
            let id: Int
            let name: String
            let bookCount: Int

            enum CodingKeys: String, CodingKey {
                case id, name
                case bookCount = "book_count"
            }
        }
        let user: String
        let shelves: [Entry]
    }

    /// GET /api/v1/shelves
    @Sendable func shelves(_ request: Request, context: APIContext) async throws -> Response {
        let counts = try await library.bookCounts(of: context.userID)
        let entries = Shelf.readerOrder.map {
            ShelvesResponse.Entry(id: $0.readerID, name: $0.readerName, bookCount: counts[$0])
        }
        return JSONBody.response(ShelvesResponse(user: context.user.email, shelves: entries))
    }

    /// GET /api/v1/shelves/:id
    @Sendable func shelf(_ request: Request, context: APIContext) async throws -> Response {
        guard let id = BoundedNumber.id(context.parameters.get("id")), let shelf = Shelf(readerID: Int(id)) else {
            throw HTTPError(.notFound, message: localized("There is no shelf with that id. Shelves are 1, 2, 3 and 4."))
        }
        let books = try await library.readerBooks(of: context.userID, on: shelf)
        var json = JSONWriter(reservingCapacity: 128 + books.count * 96)
        json.object { json in
            json.key("books")
            json.array { json in for book in books { book.write(to: &json) } }
            json.key("shelf")
            json.object { json in
                json.key("id")
                json.integer(shelf.readerID)
                json.key("name")
                json.string(shelf.readerName)
            }
        }
        return json.response()
    }

    /// GET /api/v1/books
    @Sendable func books(_ request: Request, context: APIContext) async throws -> Response {
        let filters = LibraryFilters(query: FormFields(urlEncoded: request.uri.query ?? ""))
        let books = try await library.readerBooks(of: context.userID, narrowedBy: filters)
        var json = JSONWriter(reservingCapacity: 128 + books.count * 128)
        json.object { json in
            json.key("book_count")
            json.integer(books.count)
            json.key("books")
            json.array { json in for book in books { book.write(to: &json) } }
            json.key("user")
            json.string(context.user.email)
        }
        return json.response()
    }

    /// GET /api/v1/books/:id
    @Sendable func book(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await library.requireBookEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        return JSONBody.response(BookResponse(book: ReaderBookDetail(entry)))
    }
}

extension ReaderAPIController {
    struct BookResponse: Encodable {
        let book: ReaderBookDetail
    }
}
