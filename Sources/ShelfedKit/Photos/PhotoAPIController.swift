import Foundation
import Hummingbird

/// Photos through the API: list, upload (the web's streaming pipeline and limits), edit, delete and the image
/// bytes — all only the key owner's.
struct PhotoAPIController: Sendable {
    let library: LibraryStore
    let photos: PhotoStore
    let media: MediaStore
    let uploader: PhotoUploader
    let clock: AppClock
    let maxUploadBytes: Int

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.bookPhotos.routerPath, use: index)
        router.post(APIRoute.bookPhotos.routerPath, use: create)
        router.get(APIRoute.photo.routerPath, use: show)
        router.patch(APIRoute.photo.routerPath, use: update)
        router.delete(APIRoute.photo.routerPath, use: delete)
        router.get(APIRoute.photoFile.routerPath, use: file)
    }

    struct PhotosResponse: Encodable {
        let photos: [PhotoJSON]
    }

    struct PhotoResponse: Encodable {
        let photo: PhotoJSON
    }

    /// GET /api/v1/books/:id/photos, newest first.
    @Sendable func index(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await requireBook(context)
        let list = try await photos.photos(ofBook: entry.bookID, userID: context.userID)
        return JSONBody.response(PhotosResponse(photos: list.map(PhotoJSON.init)))
    }

    /// POST /api/v1/books/:id/photos (multipart: `photo` files, `page_number` or for a film or show `moment`,
    /// `comment`): 201 with the photos.
    @Sendable func create(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await requireBook(context)
        // No CSRF part: the call carries a key, which no other site's page can send.
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: nil,
            temporaryFile: { media.temporaryFile() })
        switch try await uploader.storePages(from: upload, of: entry, now: clock.now(), refusesOtherKindsPlace: true) {
        case .stored(let stored):
            return JSONBody.response(PhotosResponse(photos: stored.map(PhotoJSON.init)), status: .created)
        case .refused(_, let errors, _) where errors["photo"] != nil:
            throw HTTPError(.badRequest, message: localized("Send the picture as a file part named \"photo\"."))
        case .refused(_, let errors, _):
            throw HTTPError(.unprocessableContent, message: errors.summary)
        }
    }

    /// GET /api/v1/photos/:id
    @Sendable func show(_ request: Request, context: APIContext) async throws -> Response {
        JSONBody.response(PhotoResponse(photo: PhotoJSON(try await requirePhoto(context))))
    }

    /// PATCH /api/v1/photos/:id (`page_number`, `moment`, `comment`; null clears, absent keeps).
    @Sendable func update(_ request: Request, context: APIContext) async throws -> Response {
        let photo = try await requirePhoto(context)
        let body = try await JSONBody.decode(PhotoChangeRequest.self, from: request)
        var form = PhotoForm(
            pageNumber: body.pageNumber.applied(to: photo.pageNumber).map(String.init),
            moment: body.moment.applied(to: photo.moment?.text), comment: body.comment.applied(to: photo.comment))
        form.refusesOtherKindsPlace = true
        let book = try await photo.bookId.asyncFlatMap { try await library.catalogBook(id: $0) }
        let target = try await photos.target(of: book)
        switch form.validate(for: target) {
        case .failure(let errors):
            throw HTTPError(.unprocessableContent, message: errors.summary)
        case .success(let (place, comment)):
            _ = try await photos.update(id: photo.id!, of: context.userID, place: place, comment: comment)
        }
        return JSONBody.response(PhotoResponse(photo: PhotoJSON(try await requirePhoto(context))))
    }

    /// DELETE /api/v1/photos/:id: 204.
    @Sendable func delete(_ request: Request, context: APIContext) async throws -> Response {
        let photo = try await requirePhoto(context)
        guard try await uploader.delete(photo.id!, userID: context.userID) else { throw Self.noSuchPhoto }
        return Response(status: .noContent)
    }

    /// GET /api/v1/photos/:id/thumb|display|original
    @Sendable func file(_ request: Request, context: APIContext) async throws -> Response {
        guard let variant = context.parameters.get("variant").flatMap(Paths.PhotoVariant.init(rawValue:)) else {
            throw Self.noSuchPhoto
        }
        let photo = try await requirePhoto(context)
        return try await PhotoFile.response(
            for: photo, variant, request: request, media: media, context: context)
    }

    private func requireBook(_ context: APIContext) async throws -> LibraryEntry {
        try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
    }

    private func requirePhoto(_ context: APIContext) async throws -> Photo {
        guard let id = BoundedNumber.id(context.parameters.get("photoID")),
            let photo = try await photos.photo(id: id, of: context.userID)
        else { throw Self.noSuchPhoto }
        return photo
    }

    static let noSuchPhoto = HTTPError(
        .notFound, message: localized("There is no such photo. It may have been deleted."))
}

/// `PATCH /api/v1/photos/:id`.
struct PhotoChangeRequest: Decodable, Sendable {
    var pageNumber: Patch<Int> = .keep
    var moment: Patch<String> = .keep
    var comment: Patch<String> = .keep

    enum CodingKeys: String, CodingKey {
        case comment, moment
        case pageNumber = "page_number"
    }

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: CodingKeys.self)
        if body.contains(.pageNumber) {
            pageNumber =
                try body.decodeNil(forKey: .pageNumber) ? .set(nil) : .set(body.decode(Int.self, forKey: .pageNumber))
        }
        if body.contains(.moment) {
            moment = try body.decodeNil(forKey: .moment) ? .set(nil) : .set(body.decode(String.self, forKey: .moment))
        }
        if body.contains(.comment) {
            comment =
                try body.decodeNil(forKey: .comment) ? .set(nil) : .set(body.decode(String.self, forKey: .comment))
        }
    }
}

/// A photo as the API shows it, with the paths of its three image files.
struct PhotoJSON: Encodable, Sendable {
    let id: Int64
    let bookID: Int64?
    let pageNumber: Int?
    /// A film's or show's moment: "S2E3 12:04", "1:02:15".
    let moment: String?
    let comment: String?
    let width: Int
    let height: Int
    let bytes: Int
    let contentType: String
    let createdAt: Date
    let thumbURL: String
    let displayURL: String
    let originalURL: String
    let text: String?
    let textStatus: String?

    enum CodingKeys: String, CodingKey {
        case id, comment, width, height, bytes, text, moment
        case textStatus = "text_status"
        case bookID = "book_id"
        case pageNumber = "page_number"
        case contentType = "content_type"
        case createdAt = "created_at"
        case thumbURL = "thumb_url"
        case displayURL = "display_url"
        case originalURL = "original_url"
    }

    init(_ photo: Photo) {
        let id = photo.id ?? 0
        self.id = id
        bookID = photo.bookId
        pageNumber = photo.pageNumber
        moment = photo.moment?.text
        comment = photo.comment
        width = photo.width
        height = photo.height
        bytes = photo.bytes
        contentType = photo.contentType
        createdAt = photo.createdAt
        thumbURL = APIRoute.photoFile.link(id, "thumb")
        displayURL = APIRoute.photoFile.link(id, "display")
        originalURL = APIRoute.photoFile.link(id, "original")
        text = photo.ocrText
        // "reading" is the server's own bookkeeping; to a client it is still waiting.
        textStatus =
            photo.ocrStatus == PhotoText.Status.reading.rawValue ? PhotoText.Status.pending.rawValue : photo.ocrStatus
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(bookID, forKey: .bookID)
        try container.encode(pageNumber, forKey: .pageNumber)
        try container.encode(moment, forKey: .moment)
        try container.encode(comment, forKey: .comment)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(thumbURL, forKey: .thumbURL)
        try container.encode(displayURL, forKey: .displayURL)
        try container.encode(originalURL, forKey: .originalURL)
        try container.encode(text, forKey: .text)
        try container.encode(textStatus, forKey: .textStatus)
    }
}
