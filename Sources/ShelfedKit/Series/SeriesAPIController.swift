import Foundation
import Hummingbird

/// The series pages in the Reader API's style: `GET /api/v1/series` (the caller's series) and
/// `GET /api/v1/series/books?name=` (one series in order, with the caller's shelf for each book).
struct SeriesAPIController: Sendable {
    let series: SeriesStore

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.series.routerPath, use: index)
        router.get(APIRoute.seriesBooks.routerPath, use: show)
    }

    struct SeriesList: Encodable {
        struct Item: Encodable {
            let name: String
            let bookCount: Int
            let readCount: Int

            enum CodingKeys: String, CodingKey {
                case name
                case bookCount = "book_count"
                case readCount = "read_count"
            }
        }

        let series: [Item]
    }

    struct SeriesBooks: Encodable {
        struct Book: Encodable {
            /// The caller's book id (as `/api/v1/books/:id`), null for a book not in their library.
            let id: Int64?
            let title: String
            let author: String
            let isbn: String?
            let position: Double?
            let shelfID: Int?
            let shelfName: String?
            let imageURL: String?

            enum CodingKeys: String, CodingKey {
                case id, title, author, isbn, position
                case shelfID = "shelf_id"
                case shelfName = "shelf_name"
                case imageURL = "image_url"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(title, forKey: .title)
                try container.encode(author, forKey: .author)
                try container.encode(isbn, forKey: .isbn)
                try container.encode(position, forKey: .position)
                try container.encode(shelfID, forKey: .shelfID)
                try container.encode(shelfName, forKey: .shelfName)
                try container.encode(imageURL, forKey: .imageURL)
            }
        }

        let name: String
        let books: [Book]
    }

    /// GET /api/v1/series
    @Sendable func index(_ request: Request, context: APIContext) async throws -> Response {
        let summaries = try await series.summaries(for: context.userID)
        return JSONBody.response(
            SeriesList(series: summaries.map { .init(name: $0.name, bookCount: $0.inLibrary, readCount: $0.read) }))
    }

    /// GET /api/v1/series/books?name=
    @Sendable func show(_ request: Request, context: APIContext) async throws -> Response {
        guard let name = FormFields(urlEncoded: request.uri.query ?? "")["name"], !name.isEmpty else {
            throw HTTPError(.badRequest, message: "name is required: the series' name, as GET /api/v1/series lists it.")
        }
        guard let found = try await series.series(named: name, for: context.userID) else {
            throw HTTPError(.notFound, message: localized("None of your books is in a series of that name."))
        }
        return JSONBody.response(
            SeriesBooks(
                name: found.name,
                books: found.members.map { member in
                    let book = member.book
                    return .init(
                        id: member.shelf == nil ? nil : book.id, title: book.title,
                        author: book.authors.joined(separator: ", "), isbn: book.isbn13 ?? book.isbn10,
                        position: book.seriesPosition, shelfID: member.shelf?.readerID,
                        shelfName: member.shelf?.readerName, imageURL: book.coverPath.map { "/covers/" + $0 })
                }))
    }
}
