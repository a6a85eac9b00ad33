import Foundation
import Hummingbird

/// Uploading, viewing, editing and deleting photos of a book's pages and moments.
struct PhotoController: Sendable {
    let photos: PhotoStore
    let library: LibraryStore
    let uploader: PhotoUploader
    let renderer: PageRenderer
    let clock: AppClock
    let maxUploadBytes: Int
    let textSearch: TextSearchStore
    /// Whether a background reader fills in photos' words on this server (tesseract installed, not turned off).
    let readsText: Bool
    let sharing: HouseholdSharing

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.newBookPhoto.routerPath, use: new)
        router.post(Route.bookPhotos.routerPath, use: create)
        router.get(Route.bookPhotos.routerPath, use: gallery)
        router.get(Route.photo.routerPath, use: show)
        router.post(Route.photo.routerPath, use: update)
        router.get(Route.photoDelete.routerPath, use: confirmDelete)
        router.post(Route.photoDelete.routerPath, use: delete)
        router.post(Route.photoTouchUp.routerPath, use: touchUp)
        router.get(Route.photoFile.routerPath, use: file)
    }

    /// GET /books/:id/photos/new
    @Sendable func new(_ request: Request, context: SignedInContext) async throws -> HTML {
        let entry = try await requireBook(context)
        return try renderer.render(newPage(entry, context: context, form: PhotoForm()), template: "photos/new")
    }

    /// POST /books/:id/photos (multipart: `_csrf` first, then `page_number`, `comment`, one or more `photo`)
    @Sendable func create(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await requireBook(context)
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: context.csrfToken,
            temporaryFile: { uploader.media.temporaryFile() })
        let stored: [Photo]
        switch try await uploader.storePages(from: upload, of: entry, now: clock.now(), keepingRefused: true) {
        case .stored(let photos):
            stored = photos
        case .refused(let form, let errors, let pending):
            var page = newPage(entry, context: context, form: form, errors: errors)
            if let pending {
                page.pending = pending
                page.pendingFiles = uploader.media.pendingFiles(pending, userID: context.userID).map {
                    "\($0.name) (\(ByteCountFormatter.string(fromByteCount: Int64($0.bytes), countStyle: .file)))"
                }
            }
            return try renderer.render(page, template: "photos/new", status: .unprocessableContent).response
        }
        let target = stored.count == 1 ? Paths.photo(stored[0].id!) : Paths.bookPhotos(entry.bookID)
        return .seeOther(target)
    }

    /// GET /books/:id/photos?sort=page|date
    @Sendable func gallery(_ request: Request, context: SignedInContext) async throws -> HTML {
        let entry = try await requireBook(context)
        let bookID = entry.bookID
        let byPage = request.uri.queryParameters["sort"] == "page"
        let list = try await photos.photos(ofBook: bookID, userID: entry.userBook.userId, order: byPage ? .page : .date)
        let page = GalleryPage(
            chrome: PageChrome(
                title: localized("Photos of {{bookTitle}}", ["bookTitle": entry.book.title]), context: context,
                tab: .shelves),
            bookTitle: entry.book.title, bookPath: Paths.book(bookID), newPhotoPath: Paths.newBookPhoto(bookID),
            wording: PhotoWording(entry.book.kind), photos: list.map { PhotoThumb($0, bookTitle: entry.book.title) },
            byPage: byPage,
            byPagePath: Paths.bookPhotos(bookID) + "?sort=page", byDatePath: Paths.bookPhotos(bookID) + "?sort=date")
        return try renderer.render(page, template: "photos/gallery")
    }

    /// GET /photos/:photoID
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let (photo, title, book) = try await requirePhoto(context)
        var page = photoPage(photo, bookTitle: title, target: PhotoTarget(book), context: context)
        if photo.bookId != nil {
            page.sharing = ShareSwitch(
                try await sharing.shareState(ofPhoto: photo.id!, of: context.userID),
                formPath: Paths.photoShare(photo.id!), housePath: Paths.housePhoto(photo.id!), noun: "photo")
        }
        if let saved = request.uri.queryParameters["saved"].map(String.init),
            ["photo", "touch-up", "touch-up-undone", "shared", "unshared"].contains(saved)
        {
            page.chrome.toast = ActionNotice.saved(saved, dismiss: Paths.photo(photo.id!))
        }
        return try renderer.render(page, template: "photos/show")
    }

    /// POST /photos/:photoID (`page_number` for a book's photo or `moment` for a film's or show's, `comment`)
    @Sendable func update(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let (photo, title, book) = try await requirePhoto(context)
        let form = try await request.decodeForm(PhotoForm.self)
        let target = try await photos.target(of: book)
        switch (form.validate(for: target), form.validatedText()) {
        case (.success(let (place, comment)), .success(let text)):
            _ = try await photos.update(id: photo.id!, of: photo.userId, place: place, comment: comment)
            // Saving the page number must not turn untouched text into "edited"; only a real change does.
            if form.text != nil, (text ?? "") != (photo.ocrText ?? "") {
                _ = try await textSearch.setText(
                    text?.isEmpty == true ? nil : text, ofPhoto: photo.id!, userID: photo.userId)
            }
            return .seeOther(ActionNotice.link(Paths.photo(photo.id!), adding: [("saved", "photo")]))
        case (.failure(let errors), _), (_, .failure(let errors)):
            let page = photoPage(
                photo, bookTitle: title, target: target, context: context, form: form, errors: errors)
            return try renderer.render(page, template: "photos/show", status: .unprocessableContent).response
        }
    }

    /// GET /photos/:photoID/delete
    @Sendable func confirmDelete(_ request: Request, context: SignedInContext) async throws -> HTML {
        let (photo, title, _) = try await requirePhoto(context)
        let id = photo.id!
        let page = DeletePhotoPage(
            chrome: PageChrome(title: localized("Delete this photo?"), context: context, tab: .shelves),
            thumbURL: Paths.photoFile(id, .thumb), alt: PhotoThumb(photo, bookTitle: title).alt,
            deletePath: Paths.photoDelete(id), photoPath: Paths.photo(id))
        return try renderer.render(page, template: "photos/delete")
    }

    /// POST /photos/:photoID/delete: removes the row and the three files.
    @Sendable func delete(_ request: Request, context: SignedInContext) async throws -> Response {
        let (photo, _, _) = try await requirePhoto(context)
        _ = try await uploader.delete(photo.id!, userID: photo.userId)
        return .seeOther(photo.bookId.map(Paths.bookPhotos) ?? Paths.profile)
    }

    /// GET /photos/:photoID/thumb|display|original: only for the owner, cached privately.
    @Sendable func file(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let variant = context.parameters.get("variant").flatMap(Paths.PhotoVariant.init(rawValue:)) else {
            throw HTTPError(.notFound)
        }
        let (photo, _, _) = try await requirePhoto(context)
        return try await PhotoFile.response(
            for: photo, variant, request: request, media: uploader.media, context: context)
    }

    private func newPage(
        _ entry: LibraryEntry, context: SignedInContext, form: PhotoForm, errors: FieldErrors = .init()
    )
        -> NewPhotoPage
    {
        var page = NewPhotoPage(
            chrome: PageChrome(title: localized("Add a photo"), context: context, tab: .shelves),
            bookTitle: entry.book.title,
            bookPath: Paths.book(entry.bookID), action: Paths.bookPhotos(entry.bookID),
            place: PlaceField(PhotoTarget(entry.book), form: form, errors: errors),
            wording: PhotoWording(entry.book.kind), comment: form.comment, commentError: errors["comment"],
            photoError: errors["photo"], maxUploadMB: maxUploadBytes / 1_048_576,
            acceptsHEIC: ImageProcessor.canReadHEIC)
        page.keepTouchUp(form.touchUp, error: errors["crop"], kind: entry.book.kind)
        return page
    }

    func photoPage(
        _ photo: Photo, bookTitle: String, target: PhotoTarget, context: SignedInContext, form: PhotoForm? = nil,
        errors: FieldErrors = .init()
    ) -> PhotoPage {
        let id = photo.id!
        return PhotoPage(
            chrome: PageChrome(
                title: localized("Photo from {{title}}", ["title": bookTitle]), context: context, tab: .shelves),
            id: id,
            displayURL: Paths.photoFile(id, .display), originalURL: Paths.photoFile(id, .original), width: photo.width,
            height: photo.height, alt: PhotoThumb(photo, bookTitle: bookTitle).alt, bookTitle: bookTitle,
            bookPath: photo.bookId.map(Paths.book) ?? Paths.profile,
            galleryPath: photo.bookId.map(Paths.bookPhotos) ?? Paths.profile,
            placeLabel: photo.placeLabel,
            place: form.map { PlaceField(target, form: $0, errors: errors) } ?? PlaceField(target, photo: photo),
            wording: PhotoWording(target.kind), comment: form?.comment ?? photo.comment ?? "",
            uploaded: Self.uploadedDay(photo.createdAt), editPath: Paths.photo(id),
            deletePath: Paths.photoDelete(id), commentError: errors["comment"],
            text: form?.text ?? photo.ocrText, textEditable: !readsText || Self.textIsSettled(photo.ocrStatus),
            textStatusMessage: Self.textStatusMessage(photo, readsText: readsText), textError: errors["text"],
            quotesPath: Paths.quotes, touchUp: photo.bookId == nil ? nil : TouchUpSection(photo, kind: target.kind))
    }

    /// "27 November 2026" as the page's language writes a day.
    static func uploadedDay(_ date: Date) -> String {
        let style = Date.FormatStyle.dateTime.year().month(.wide).day()
        let language = Language.current
        return language == .en ? date.formatted(style) : date.formatted(style.locale(language.locale))
    }

    static func textIsSettled(_ status: String?) -> Bool {
        switch status.flatMap(PhotoText.Status.init(rawValue:)) {
        case .done, .failed, .edited: true
        default: false
        }
    }

    /// What the page says about the photo's words when it cannot simply show them.
    static func textStatusMessage(_ photo: Photo, readsText: Bool) -> String? {
        switch photo.ocrStatus.flatMap(PhotoText.Status.init(rawValue:)) {
        case .pending where !readsText, .reading where !readsText:
            localized(
                "This server does not read the words on photos ({{why}}).",
                ["why": localized("tesseract-ocr is not installed, or reading is turned off")])
                + " " + localized("Type them below and Search my quotes will find them.")
        case .pending, .reading:
            localized("Reading the words on this page… They appear here in a minute or so; reload to see them.")
        case .failed:
            localized("The words on this photo could not be read.") + " "
                + localized("You can type them below, so Search my quotes finds them.")
        case .done where photo.ocrText == nil:
            localized("No words were found on this photo. If it has some, type them below.")
        default:
            nil
        }
    }

    private func requireBook(_ context: SignedInContext) async throws -> LibraryEntry {
        try await library.requireEntry(bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
    }

    /// The signed-in user's photo for `:photoID`, its title's name and its catalog row (nil for a profile picture);
    /// anyone else's is a 404.
    func requirePhoto(_ context: SignedInContext) async throws -> (Photo, String, Book?) {
        guard let id = BoundedNumber.id(context.parameters.get("photoID")),
            let photo = try await photos.photo(id: id, of: context.userID)
        else {
            throw HTTPError(.notFound, message: localized("There is no such photo. It may have been deleted."))
        }
        let book = try await photo.bookId.asyncFlatMap { try await library.catalogBook(id: $0) }
        return (photo, book?.title ?? localized("your profile"), book)
    }
}

extension Optional where Wrapped: Sendable {
    func asyncFlatMap<T>(_ transform: (Wrapped) async throws -> T?) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
