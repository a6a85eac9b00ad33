import Foundation
import Hummingbird

/// Shelfed's own library endpoints in the Reader style: add, change and remove books (DESIGN §6).
struct LibraryAPIController: Sendable {
    let library: LibraryStore
    let books: LibraryService
    let media: MediaStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.post(APIRoute.books.routerPath, use: create)
        router.patch(APIRoute.book.routerPath, use: update)
        router.delete(APIRoute.book.routerPath, use: delete)
    }

    /// POST /api/v1/books: 201 with the book, 409 when the user has it already.
    @Sendable func create(_ request: Request, context: APIContext) async throws -> Response {
        let body = try await JSONBody.decode(NewBookRequest.self, from: request)
        let shelf = try Self.shelf(body.shelfID ?? Shelf.wantToRead.readerID)
        let bookID: Int64
        do {
            if body.title == nil, body.volumeID != nil || body.isbn != nil {
                bookID = try await addFromProvider(body, to: shelf, for: context.userID)
            } else {
                switch body.form.validate() {
                case .failure(let errors):
                    throw HTTPError(.unprocessableContent, message: errors.summary)
                case .success(let (book, _)):
                    bookID = try await books.add(book, to: shelf, for: context.userID)
                }
            }
        } catch let duplicate as AlreadyInLibrary {
            throw HTTPError(
                .conflict,
                message: localized(
                    "This book is already in your library, as book {{id}}.", ["id": String(duplicate.bookID)]))
        }
        let entry = try await library.requireEntry(bookID: bookID, of: context.userID)
        return JSONBody.response(ReaderAPIController.BookResponse(book: ReaderBookDetail(entry)), status: .created)
    }

    private func addFromProvider(_ body: NewBookRequest, to shelf: Shelf, for userID: Int64) async throws -> Int64 {
        let isbn = body.isbn.flatMap(ISBN.init)
        if let volumeID = body.volumeID, !SearchRequest.isVolumeID(volumeID) {
            throw HTTPError(.badRequest, message: "volume_id is not a Google Books volume id.")
        }
        if body.volumeID == nil, isbn == nil {
            throw HTTPError(.badRequest, message: "isbn is not a valid ISBN-10 or ISBN-13.")
        }
        do {
            return try await books.addFromProvider(
                volumeID: body.volumeID, isbn: isbn, to: shelf, for: userID)
        } catch let failure as UpstreamFailure {
            if failure == .notFound {
                throw HTTPError(
                    .notFound, message: localized("No provider knows that book. Send its title to add it by hand."))
            }
            throw HTTPError(failure.pageStatus, message: failure.userMessage)
        }
    }

    /// PATCH /api/v1/books/:id: 200 with the book as changed; nothing is written when any field is invalid.
    @Sendable func update(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try requireBookID(context)
        // A film's or show's id is not a book's here (DESIGN §17): 404 before anything is read or written.
        _ = try await library.requireBookEntry(bookID: bookID, of: context.userID)
        let body = try await JSONBody.decode(BookChangeRequest.self, from: request)
        if let shelfID = body.shelfID { _ = try Self.shelf(shelfID) }
        guard
            let problems = try await library.apply(
                body.change, bookID: bookID, for: context.userID, now: clock.now(), today: clock.today())
        else { throw Self.notInLibrary }
        guard problems.isEmpty else { throw HTTPError(.unprocessableContent, message: problems.summary) }
        let entry = try await library.requireEntry(bookID: bookID, of: context.userID)
        return JSONBody.response(ReaderAPIController.BookResponse(book: ReaderBookDetail(entry)))
    }

    /// DELETE /api/v1/books/:id: removes the book and the user's photos of it; 204.
    @Sendable func delete(_ request: Request, context: APIContext) async throws -> Response {
        let bookID = try requireBookID(context)
        _ = try await library.requireBookEntry(bookID: bookID, of: context.userID)
        guard let removed = try await library.remove(bookID: bookID, for: context.userID)
        else { throw Self.notInLibrary }
        media.remove(removed.flatMap(\.files))
        return Response(status: .noContent)
    }

    private func requireBookID(_ context: APIContext) throws -> Int64 {
        guard let id = BoundedNumber.id(context.parameters.get("id")) else { throw Self.notInLibrary }
        return id
    }

    static let notInLibrary = HTTPError(.notFound, message: localized("This book is not in your library."))

    static func shelf(_ id: Int) throws -> Shelf {
        guard let shelf = Shelf(readerID: id) else {
            throw HTTPError(
                .unprocessableContent, message: "shelf_id must be 1 (Currently Reading), 2 (Want to Read) or 3 (Read).")
        }
        return shelf
    }
}
