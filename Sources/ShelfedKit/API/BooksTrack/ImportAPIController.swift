import Crypto
import Foundation
import GRDB
import HTTPTypes
import Hummingbird

/// The BooksTrack app's import jobs (DESIGN §6 "Jobs"): `POST /api/v2/imports` starts one from a multipart `file`
/// (no preview: known books are updated, custom shelves go to Want to read and to a list), its status, its
/// progress as Server-Sent Events, its results, and `DELETE /v1/jobs/{jobId}` with the job's `authToken` or the
/// owner's key. A job belongs to the user whose key started it; anyone else's id is a 404.
struct ImportAPIController: Sendable {
    let imports: ImportStore
    let runner: ImportRunner
    let barcodeJobs: BarcodeJobRunner
    let streams: LiveStreams
    let keys: APIKeyStore
    let media: MediaStore
    let clock: AppClock

    /// Routes that need the caller's key (the gate in front has checked it when sent).
    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.post(APIRoute.imports.routerPath, use: start)
        router.post(APIRoute.batchEnrich.routerPath, use: startBatchEnrich)
        router.get(APIRoute.importStatus.routerPath, use: status)
        router.get(APIRoute.importStream.routerPath, use: stream)
        router.get(APIRoute.importResults.routerPath, use: results)
    }

    /// The cancel route authenticates itself: the job's token is not an API key.
    func addCancelRoute(to router: RouterGroup<AppRequestContext>) {
        router.delete(APIRoute.jobCancel.routerPath, use: cancel)
    }

    struct Started: Encodable {
        let jobId: String
        let authToken: String
    }

    struct Status: Encodable {
        let jobId: String
        let status: String
        let progress: Double
        let totalCount: Int
        let processedCount: Int
        let pipeline: String
    }

    struct Results: Encodable {
        struct RowError: Encodable {
            let row: Int
            let isbn: String?
            let error: String

            enum CodingKeys: String, CodingKey { case row, isbn, error }

            /// `isbn` is null, not absent, when the row had none.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(row, forKey: .row)
                try container.encode(isbn, forKey: .isbn)
                try container.encode(error, forKey: .error)
            }
        }

        let booksCreated: Int
        let booksUpdated: Int
        let duplicatesSkipped: Int
        let enrichmentSucceeded: Int
        let enrichmentFailed: Int
        let errors: [RowError]
        let books: [BookDTO]
    }

    /// POST /api/v2/imports (multipart `file`) → 202 `{"jobId","authToken"}`.
    @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> Response {
        let userID = try Self.user(context)
        let upload: MultipartUpload
        do {
            upload = try await request.receiveMultipart(
                fileField: "file", maxBytes: ImportController.maxUploadBytes, csrfToken: nil,
                temporaryFile: { media.temporaryFile(".upload") },
                tooLargeAdvice: localized("Import files can be up to 20 MB. Split the file and send each part."))
        } catch let error as HTTPError where (400..<500).contains(error.status.code) {
            // The client's upload was at fault: INVALID_REQUEST with its status. A failure of the server's own
            // (a full disk) goes on to the envelope as the 500 it is.
            var failure = BooksTrackError.invalid(error.body ?? localized("The upload could not be read."))
            failure.statusOverride = error.status == .contentTooLarge ? .contentTooLarge : nil
            throw failure
        }
        defer { upload.discardFiles() }
        guard let file = upload.files.first else {
            throw BooksTrackError.invalid(localized("Send the export as a multipart field named \"file\"."))
        }
        let job: ImportJob
        do {
            job = try await imports.stage(
                upload: file.url, fileName: ImportValues.line(file.clientName) ?? "export.csv", userID: userID,
                now: clock.now())
        } catch let error as ImportStore.StageError {
            throw BooksTrackError.invalid(error.advice)
        }
        guard job.status == .preview else {
            _ = try await imports.cancel(jobID: job.id, userID: userID, now: clock.now())
            throw BooksTrackError.invalid(
                localized(
                    "The file's columns are not those of a Goodreads, StoryGraph, LibraryThing, Openreads, BookWyrm, Letterboxd, IMDb or Trakt export. Import it on the web page, where you can choose which column is which."
                ))
        }
        // 256 random bits, shown once; only its SHA-256 is kept.
        let token = ImportJob.newID() + ImportJob.newID()
        try await imports.setAuthToken(APIKeyStore.digest(of: token), jobID: job.id)
        _ = try await imports.confirm(jobID: job.id, userID: userID, existing: .update, shelfMapping: [:])
        runner.jobConfirmed()
        return JSONBody.response(
            Envelope(data: Started(jobId: job.id, authToken: token), metadata: nil), status: .accepted)
    }

    /// The most barcodes one batch may hold: each may cost a Google Books lookup.
    static let maxBarcodes = 100

    /// POST /api/batch-enrich `{"barcodes":[…]}` → 202 `{"jobId","authToken"}`: each ISBN is looked up and the book
    /// added to Want to read; status, stream, results and cancel are those of an import.
    @Sendable func startBatchEnrich(_ request: Request, context: AppRequestContext) async throws -> Response {
        let userID = try Self.user(context)
        struct BatchRequest: Decodable {
            let barcodes: [String]
        }
        let barcodes = try await JSONBody.decode(BatchRequest.self, from: request).barcodes
        guard (1...Self.maxBarcodes).contains(barcodes.count) else {
            throw BooksTrackError.invalid(
                "barcodes must hold 1 to \(Self.maxBarcodes) ISBNs; send more in further batches.")
        }
        guard barcodes.allSatisfy({ $0.utf8.count <= 32 }) else {
            throw BooksTrackError.invalid(localized("Each barcode must be an ISBN of at most 32 characters."))
        }
        let token = ImportJob.newID() + ImportJob.newID()
        let job = try await imports.stageBarcodes(
            barcodes, userID: userID, authTokenSha256: APIKeyStore.digest(of: token), now: clock.now())
        barcodeJobs.batchAdded()
        return JSONBody.response(
            Envelope(data: Started(jobId: job.id, authToken: token), metadata: nil), status: .accepted)
    }

    /// GET /api/v2/imports/{jobId}
    @Sendable func status(_ request: Request, context: AppRequestContext) async throws -> Response {
        let job = try await requireJob(context)
        let status = Status(
            jobId: job.id, status: job.status.apiName, progress: job.progress, totalCount: job.total,
            processedCount: job.processed, pipeline: job.format == .barcodes ? "batch-enrich" : "import")
        return JSONBody.response(Envelope(data: status, metadata: nil))
    }

    /// GET /api/v2/imports/{jobId}/stream
    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let job = try await requireJob(context)
        let imports = imports
        let ticket = try streams.ticket(for: job.userId, connection: context.channel)
        return ImportEventStream { try await imports.job(id: job.id, of: job.userId) }
            .response(lastEventID: request.headers[HTTPField.Name("Last-Event-ID")!], holding: ticket)
    }

    /// GET /api/v2/imports/{jobId}/results
    @Sendable func results(_ request: Request, context: AppRequestContext) async throws -> Response {
        let job = try await requireJob(context)
        let failed = try await imports.rows(of: job.id, userID: job.userId, outcome: .failed, limit: 1_000)
        let isBatch = job.format == .barcodes
        let books = try await imports.importedBooks(
            of: job.id, userID: job.userId, limit: 5_000, includingSkipped: isBatch)
        // A batch's books come from the providers already filled in: its enrichment is its lookups.
        let enrichment = try await imports.enrichment(of: job.id)
        let results = Results(
            booksCreated: job.created, booksUpdated: job.updated, duplicatesSkipped: job.skipped,
            enrichmentSucceeded: isBatch ? job.created + job.skipped : enrichment.enriched,
            enrichmentFailed: isBatch ? job.failed : enrichment.failed,
            errors: failed.map { row in
                Results.RowError(
                    row: row.row, isbn: isBatch ? row.raw.first.flatMap(ISBN.init)?.isbn13 : row.book?.isbn13,
                    error: row.message ?? "Not imported.")
            },
            books: books.map(BookDTO.init(book:)))
        return JSONBody.response(Envelope(data: results, metadata: nil))
    }

    /// DELETE /v1/jobs/{jobId} with `Authorization: Bearer <authToken or API key>`.
    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let presented = APIKeyAuthenticator.presentedKey(in: request)?.key else {
            throw Self.unauthorized()
        }
        let jobID = context.parameters.get("jobId") ?? ""
        guard let job = try await imports.anyJob(id: jobID) else {
            throw BooksTrackError(code: .notFound, message: localized("No such job."), retryable: false)
        }
        let digest = APIKeyStore.digest(of: presented)
        var allowed = job.authTokenSha256.map { Self.constantTimeEquals($0, digest) } ?? false
        if !allowed {
            guard let user = try await keys.user(forKey: presented, now: clock.now()) else { throw Self.unauthorized() }
            guard user.id == job.userId else {
                throw BooksTrackError(code: .notFound, message: localized("No such job."), retryable: false)
            }
            allowed = true
        }
        let canceled = try await imports.cancel(jobID: job.id, userID: job.userId, now: clock.now())
        struct Canceled: Encodable {
            let jobId: String
            let status: String
        }
        return JSONBody.response(
            Envelope(data: Canceled(jobId: job.id, status: canceled?.status.apiName ?? "canceled"), metadata: nil))
    }

    private func requireJob(_ context: AppRequestContext) async throws -> ImportJob {
        let userID = try Self.user(context)
        guard let id = context.parameters.get("jobId"), let job = try await imports.job(id: id, of: userID) else {
            throw BooksTrackError(code: .notFound, message: localized("No such job."), retryable: false)
        }
        return job
    }

    /// Jobs belong to a user, so these routes need a key even where keyless search is allowed.
    private static func user(_ context: AppRequestContext) throws -> Int64 {
        guard let id = context.identity?.id else { throw unauthorized() }
        return id
    }

    private static func unauthorized() -> BooksTrackError {
        var error = BooksTrackError.invalid(
            localized("Send your API key (or the job's authToken) as \"Authorization: Bearer …\"."))
        error.statusOverride = .unauthorized
        return error
    }

    private static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension BookDTO {
    init(book: Book) {
        isbn = book.isbn10 ?? book.isbn13
        isbn13 = book.isbn13
        title = book.title
        authors = book.authors
        publisher = book.publisher
        publishedDate = book.publishedDate
        description = book.description
        pageCount = BoundedNumber.plausible(book.pageCount, in: BoundedNumber.pageCount)
        categories = book.categories
        language = book.language
        coverUrl = book.coverPath.map { "/covers/" + $0 }
        averageRating = nil
        ratingsCount = nil
    }
}
