import Foundation
import Hummingbird

/// A whole shelf from one photo: the upload, the scan's progress, and the review page that adds the chosen books.
struct ShelfScanController: Sendable {
    let shelves: ShelfScanService
    let books: LibraryService
    let media: MediaStore
    let renderer: PageRenderer
    let maxUploadBytes: Int

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.shelfScan.routerPath, use: index)
        router.post(Route.shelfScan.routerPath, use: upload)
        router.get(Route.shelfScanResult.routerPath, use: show)
        router.post(Route.shelfScanAdd.routerPath, use: add)
    }

    /// GET /scan/shelf
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        try renderer.render(
            ShelfScanStartPage(
                context: context, configured: shelves.isConfigured, maxUploadMB: maxUploadBytes / 1_048_576),
            template: "scan/shelf")
    }

    /// POST /scan/shelf (multipart: `_csrf`, `photo`): starts the scan and shows its progress.
    @Sendable func upload(_ request: Request, context: SignedInContext) async throws -> Response {
        guard shelves.isConfigured else { throw HTTPError(.notFound) }
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: context.csrfToken,
            temporaryFile: { media.temporaryFile() },
            tooLargeAdvice: localized("Take the photo again at a smaller size."))
        defer { upload.discardFiles() }
        guard let photo = upload.files.first else {
            var page = ShelfScanStartPage(context: context, configured: true, maxUploadMB: maxUploadBytes / 1_048_576)
            page.photoError = localized("Choose a photo of your shelf.")
            return try renderer.render(page, template: "scan/shelf", status: .unprocessableContent).response
        }
        let jpeg = try await shelves.preparedImage(from: photo.url)
        let id = try await shelves.start(jpeg, for: context.userID)
        return .seeOther(Paths.shelfScanResult(id))
    }

    /// GET /scan/shelf/:scanID: progress while Gemini and the matching work, then the books to review.
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let scan = try await requireScan(context)
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let added = query["added"].flatMap { BoundedNumber.parse($0, in: 0...GeminiClient.maxBooks) }
        let shelf = query["shelf"].flatMap(Shelf.init(rawValue:))
        return try renderer.render(
            ShelfScanPage(context: context, scan: scan, added: added, shelf: shelf), template: "scan/shelf-result")
    }

    /// POST /scan/shelf/:scanID/add (`pick` = entry numbers, `shelf`): adds the chosen books in one go.
    @Sendable func add(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let scan = try await requireScan(context)
        let form = FormFields(urlEncoded: String(buffer: try await request.collectBody(upTo: 64 * 1024)))
        guard let shelf = form["shelf"].flatMap(Shelf.init(rawValue:)) else {
            throw HTTPError(.badRequest, message: localized("Choose Want to read, Reading, Read or Did not finish."))
        }
        let picks = Set(form.all("pick").compactMap { BoundedNumber.parse($0, in: 0...(GeminiClient.maxBooks - 1)) })
        var matches = scan.matches
        var added = 0
        for index in picks.sorted() where index < matches.count && matches[index].addedBookID == nil {
            let match = matches[index]
            guard match.volumeID != nil || match.isbn13 != nil else { continue }
            // A book matched by its printed ISBN is added by that ISBN (its lookup is cached from the scan); one
            // matched by title and author by the volume the search found.
            let byISBN = match.isbn13 != nil && match.isbn13 == match.candidate.isbn
            do {
                matches[index].addedBookID = try await books.addFromProvider(
                    volumeID: byISBN ? nil : match.volumeID, isbn: match.isbn13.flatMap(ISBN.init), to: shelf,
                    for: context.userID, finishedUnknown: true)
                added += 1
            } catch let duplicate as AlreadyInLibrary {
                matches[index].addedBookID = duplicate.bookID
            } catch let failure as UpstreamFailure {
                try await shelves.recordAdded(matches, scanID: scan.id, userID: context.userID)
                throw HTTPError(
                    failure.pageStatus,
                    message: localized(
                        "{{problem}} The books added so far are kept.", ["problem": failure.userMessage]))
            }
        }
        try await shelves.recordAdded(matches, scanID: scan.id, userID: context.userID)
        return .seeOther(Paths.shelfScanResult(scan.id) + "?added=\(added)&shelf=\(shelf.rawValue)")
    }

    private func requireScan(_ context: SignedInContext) async throws -> ShelfScanService.Scan {
        guard let id = context.parameters.get("scanID"), id.utf8.count <= 64,
            let scan = try await shelves.scan(id: id, of: context.userID)
        else {
            throw HTTPError(.notFound, message: localized("There is no such shelf scan. Scan the shelf again."))
        }
        return scan
    }
}

/// `scan/shelf`: what reading a shelf does, and the photo upload (or how to turn it on).
struct ShelfScanStartPage: Sendable {
    let chrome: PageChrome
    let configured: Bool
    let maxUploadMB: Int
    var photoError: String?

    init(context: some PageContext, configured: Bool, maxUploadMB: Int) {
        chrome = PageChrome(title: localized("Scan a shelf"), context: context, tab: .shelves)
        self.configured = configured
        self.maxUploadMB = maxUploadMB
    }
}

/// `scan/shelf-result`: a running scan's progress, its failure, or the books it found to review.
struct ShelfScanPage: Sendable {
    struct Entry: Sendable {
        let index: Int
        let seenTitle: String
        let seenAuthor: String?
        let confidence: String
        let title: String?
        let authors: String?
        let year: String?
        let coverURL: String
        let checked: Bool
        let weak: Bool
        let duplicate: Bool
        let failure: String?
        let searchPath: String
        let bookPath: String?
    }

    struct ShelfOption: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    let chrome: PageChrome
    let isRunning: Bool
    let progress: String?
    let failure: String?
    let entries: [Entry]
    let hasEntries: Bool
    let addPath: String
    let shelves: [ShelfOption]
    let notice: String?
    let canAdd: Bool

    init(context: some PageContext, scan: ShelfScanService.Scan, added: Int?, shelf: Shelf?) {
        isRunning = scan.status == "running" || scan.status == "queued"
        chrome = PageChrome(
            title: isRunning ? localized("Reading your shelf…") : localized("Books on your shelf"), context: context,
            tab: .shelves)
        progress = scan.progress
        failure = scan.status == "failed" ? scan.message : nil
        entries = scan.matches.enumerated().map { index, match in
            let seen = [match.candidate.title, match.candidate.author].compactMap { $0 }.joined(separator: " ")
            return Entry(
                index: index, seenTitle: match.candidate.title, seenAuthor: match.candidate.author,
                confidence: "\(Int((match.candidate.confidence * 100).rounded())) %",
                title: match.title, authors: match.authors.map { $0.joined(separator: ", ") }, year: match.year,
                coverURL: match.thumbnailURL ?? BookCover.placeholder,
                checked: match.confident && match.addedBookID == nil, weak: !match.confident,
                duplicate: match.duplicate, failure: match.failure, searchPath: Paths.search(seen),
                bookPath: match.addedBookID.map(Paths.book))
        }
        hasEntries = !entries.isEmpty
        canAdd = entries.contains { $0.bookPath == nil && $0.title != nil }
        addPath = Paths.shelfScanAdd(scan.id)
        shelves = Shelf.allCases.map {
            ShelfOption(value: $0.rawValue, label: $0.title, selected: $0 == (shelf ?? .wantToRead))
        }
        notice = added.map { count in
            localized(
                one: "Added {{count}} book to {{shelf}}.", other: "Added {{count}} books to {{shelf}}.", count: count,
                ["shelf": (shelf ?? .wantToRead).title])
        }
    }
}
