import Foundation
import Hummingbird

/// `POST /api/v1/scans/barcode`: the ISBNs in a photo and what the providers know of each.
struct ScanAPIController: Sendable {
    let scanner: BarcodeScanService
    let media: MediaStore
    let maxUploadBytes: Int
    let textSearch: TextSearchStore
    let shelfScans: ShelfScanService

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.post(APIRoute.scanBarcode.routerPath, use: barcode)
        router.post(APIRoute.scanShelf.routerPath, use: shelf)
        router.get(APIRoute.quotes.routerPath, use: quotes)
    }

    struct QuotesResponse: Encodable {
        let quotes: [Quote]

        struct Quote: Encodable {
            let photo: PhotoJSON
            let bookID: Int64
            let bookTitle: String
            let passage: String

            enum CodingKeys: String, CodingKey {
                case photo, passage
                case bookID = "book_id"
                case bookTitle = "book_title"
            }
        }
    }

    struct ShelfResponse: Encodable {
        let books: [ShelfBook]
    }

    struct ShelfBook: Encodable {
        let title: String
        let author: String?
        let isbn: String?
        let confidence: Double
        let confident: Bool
        let duplicate: Bool
        let match: Matched?
        let error: String?

        struct Matched: Encodable {
            let volumeID: String?
            let isbn13: String?
            let title: String
            let authors: [String]
            let coverURL: String?

            enum CodingKeys: String, CodingKey {
                case title, authors
                case volumeID = "volume_id"
                case isbn13 = "isbn13"
                case coverURL = "cover_url"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(volumeID, forKey: .volumeID)
                try container.encode(isbn13, forKey: .isbn13)
                try container.encode(title, forKey: .title)
                try container.encode(authors, forKey: .authors)
                try container.encode(coverURL, forKey: .coverURL)
            }
        }

        enum CodingKeys: String, CodingKey {
            case title, author, isbn, confidence, confident, duplicate, match, error
        }

        init(_ match: ShelfScanService.Match) {
            title = match.candidate.title
            author = match.candidate.author
            isbn = match.candidate.isbn
            confidence = match.candidate.confidence
            confident = match.confident
            duplicate = match.duplicate
            self.match = match.title.map {
                Matched(
                    volumeID: match.volumeID, isbn13: match.isbn13, title: $0, authors: match.authors ?? [],
                    coverURL: match.thumbnailURL)
            }
            error = match.failure
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(author, forKey: .author)
            try container.encode(isbn, forKey: .isbn)
            try container.encode(confidence, forKey: .confidence)
            try container.encode(confident, forKey: .confident)
            try container.encode(duplicate, forKey: .duplicate)
            try container.encode(match, forKey: .match)
            try container.encode(error, forKey: .error)
        }
    }

    /// POST /api/v1/scans/shelf (multipart `photo`): waits for Gemini and the matching, then lists the books in
    /// shelf order. Nothing is added: add the chosen ones with `POST /api/v1/books`.
    @Sendable func shelf(_ request: Request, context: APIContext) async throws -> Response {
        guard shelfScans.isConfigured else {
            throw HTTPError(.serviceUnavailable, message: GeminiClient.Failure.notConfigured.message)
        }
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: nil, temporaryFile: { media.temporaryFile() },
            tooLargeAdvice: localized("Send the photo at a smaller size."))
        defer { upload.discardFiles() }
        guard let photo = upload.files.first else {
            throw HTTPError(.badRequest, message: localized("Send the picture as a file part named \"photo\"."))
        }
        let jpeg = try await shelfScans.preparedImage(from: photo.url)
        do {
            let matches = try await shelfScans.scan(jpeg)
            return JSONBody.response(ShelfResponse(books: matches.map(ShelfBook.init)))
        } catch let failure as GeminiClient.Failure {
            let status: HTTPResponse.Status =
                switch failure {
                case .notConfigured, .invalidKey, .apiNotEnabled, .unknownModel: .serviceUnavailable
                case .imageRejected, .blocked, .noAnswer: .unprocessableContent
                case .quotaExceeded: .tooManyRequests
                case .unreadableAnswer, .unavailable: .badGateway
                }
            throw HTTPError(status, message: failure.message)
        }
    }

    /// GET /api/v1/quotes?q=: the user's page photos whose words or comment match, best first.
    @Sendable func quotes(_ request: Request, context: APIContext) async throws -> Response {
        let query = TextSearchController.query(request)
        guard TextSearchStore.ftsQuery(query) != nil else {
            throw HTTPError(.badRequest, message: localized("Send the words to look for in q, like ?q=whale."))
        }
        let matches = try await textSearch.quotes(of: context.userID, matching: query)
        return JSONBody.response(
            QuotesResponse(
                quotes: matches.map {
                    QuotesResponse.Quote(
                        photo: PhotoJSON($0.photo), bookID: $0.photo.bookId ?? 0, bookTitle: $0.bookTitle,
                        passage: $0.snippet.replacingOccurrences(of: TextSearchStore.matchStart, with: "«")
                            .replacingOccurrences(of: TextSearchStore.matchEnd, with: "»"))
                }))
    }

    struct ScanResponse: Encodable {
        let source: String
        let isbns: [String]
        let otherCodes: [String]
        let books: [ScannedBook]

        enum CodingKeys: String, CodingKey {
            case source, isbns, books
            case otherCodes = "other_codes"
        }
    }

    struct ScannedBook: Encodable {
        let isbn: String
        let found: Bool
        let volumeID: String?
        let title: String?
        let subtitle: String?
        let authors: [String]
        let publishedDate: String?
        let pageCount: Int?
        let coverURL: String?
        let inLibrary: InLibrary?
        let error: String?

        struct InLibrary: Encodable {
            let bookID: Int64
            let shelf: String

            enum CodingKeys: String, CodingKey {
                case shelf
                case bookID = "book_id"
            }
        }

        enum CodingKeys: String, CodingKey {
            case isbn, found, title, subtitle, authors, error
            case volumeID = "volume_id"
            case publishedDate = "published_date"
            case pageCount = "page_count"
            case coverURL = "cover_url"
            case inLibrary = "in_library"
        }

        /// Every key is always present, with null when unknown, so clients can decode one shape.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isbn, forKey: .isbn)
            try container.encode(found, forKey: .found)
            try container.encode(volumeID, forKey: .volumeID)
            try container.encode(title, forKey: .title)
            try container.encode(subtitle, forKey: .subtitle)
            try container.encode(authors, forKey: .authors)
            try container.encode(publishedDate, forKey: .publishedDate)
            try container.encode(pageCount, forKey: .pageCount)
            try container.encode(coverURL, forKey: .coverURL)
            try container.encode(inLibrary, forKey: .inLibrary)
            try container.encode(error, forKey: .error)
        }

        init(_ lookup: BarcodeScanService.Lookup) {
            isbn = lookup.isbn.isbn13
            found = lookup.volume != nil
            volumeID = lookup.volume?.volumeId
            title = lookup.volume?.title
            subtitle = lookup.volume?.subtitle
            authors = lookup.volume?.authors ?? []
            publishedDate = lookup.volume?.publishedDate
            pageCount = lookup.volume?.pageCount
            coverURL = lookup.volume?.coverURL
            inLibrary = lookup.inLibrary.map { InLibrary(bookID: $0.bookID, shelf: $0.shelf.rawValue) }
            error = lookup.failure?.userMessage
        }
    }

    /// POST /api/v1/scans/barcode (multipart `photo`): 200 with what was found, also when nothing was.
    @Sendable func barcode(_ request: Request, context: APIContext) async throws -> Response {
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: nil, temporaryFile: { media.temporaryFile() },
            tooLargeAdvice: localized("Send the photo at a smaller size."))
        defer { upload.discardFiles() }
        guard let photo = upload.files.first else {
            throw HTTPError(.badRequest, message: localized("Send the picture as a file part named \"photo\"."))
        }
        let outcome = try await scanner.scan(photoAt: photo.url)
        let lookups = try await scanner.lookUp(outcome.isbns, for: context.userID)
        return JSONBody.response(
            ScanResponse(
                source: outcome.source.rawValue, isbns: outcome.isbns.map(\.isbn13), otherCodes: outcome.otherCodes,
                books: lookups.map(ScannedBook.init)))
    }
}
