import Foundation
import HTTPTypes
import Hummingbird

/// `/import`: upload an export → choose columns (unknown CSVs) → preview → progress → results, fix-and-retry.
struct ImportController: Sendable {
    let imports: ImportStore
    let runner: ImportRunner
    let streams: LiveStreams
    let media: MediaStore
    let renderer: PageRenderer
    let clock: AppClock
    /// Whether imported films and shows are matched to a provider in the background (`AppConfig`).
    var matchesTitles = true
    /// The house's Jellyfin server, offered on the page once the admin linked one.
    var jellyfin: JellyfinServer? = nil

    /// Files up to 20 MB (a Goodreads export of 40,000 books), plus the form around them.
    static let maxUploadBytes = 20 * 1_048_576 + 64 * 1024

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.imports.routerPath, use: index)
        router.post(Route.imports.routerPath, use: upload)
        router.get(Route.importJob.routerPath, use: show)
        router.post(Route.importMapping.routerPath, use: chooseColumns)
        router.post(Route.importConfirm.routerPath, use: confirm)
        router.post(Route.importDateOrder.routerPath, use: chooseDateOrder)
        router.post(Route.importCancel.routerPath, use: cancel)
        router.get(Route.importEvents.routerPath, use: events)
        router.get(Route.importFailedRows.routerPath, use: failedRows)
        router.post(Route.importRetry.routerPath, use: retry)
        router.post(Route.importWithoutDamagedISBNs.routerPath, use: importWithoutDamagedISBNs)
        router.get(Route.exportGoodreads.routerPath, use: exportGoodreads)
        router.get(Route.exportLetterboxd.routerPath, use: exportLetterboxd)
    }

    /// GET /import: the upload form and past imports.
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await renderIndex(context: context, error: nil)
    }

    private func renderIndex(context: SignedInContext, error: String?, status: HTTPResponse.Status = .ok)
        async throws -> HTML
    {
        let jobs = try await imports.jobs(of: context.userID)
        var page = ImportIndexPage(context: context, jobs: jobs, error: error)
        if try await jellyfin?.saved() != nil {
            page.jellyfin = ImportIndexPage.JellyfinSection(formPath: Route.importJellyfin.link())
        }
        return try renderer.render(page, template: "import/index", status: status)
    }

    /// POST /import (multipart, field `file`): stages the rows and shows the preview (or the column choice).
    @Sendable func upload(_ request: Request, context: SignedInContext) async throws -> Response {
        let upload = try await request.receiveMultipart(
            fileField: "file", maxBytes: Self.maxUploadBytes, csrfToken: context.csrfToken,
            temporaryFile: { media.temporaryFile(".upload") },
            tooLargeAdvice: localized("Import files can be up to 20 MB. Split the file in two and import each half."))
        defer { upload.discardFiles() }
        guard let file = upload.files.first, file.bytes > 0 else {
            return try await renderIndex(
                context: context, error: localized("Choose the export file (a .csv, .tsv, .zip or .json) to import."),
                status: .badRequest
            ).response(from: request, context: context)
        }
        let name = ImportValues.line(file.clientName) ?? "export.csv"
        do {
            let job = try await imports.stage(
                upload: file.url, fileName: name, userID: context.userID, now: clock.now())
            return .seeOther(Paths.importJob(job.id))
        } catch let error as ImportStore.StageError {
            return try await renderIndex(context: context, error: error.advice, status: .unprocessableContent)
                .response(from: request, context: context)
        }
    }

    /// Problem rows shown with a form each (every column a field); the rest are in the failed-rows CSV.
    static let problemRowsShown = 50

    /// GET /import/:jobID: whichever step the job is at.
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let job = try await requireJob(context)
        var page = ImportJobPage(context: context, job: job)
        switch job.status {
        case .preview:
            page.previewRows = try await imports.rows(of: job.id, userID: context.userID, outcome: .pending, limit: 10)
                .compactMap { row in
                    row.book.map { ImportJobPage.PreviewRow(row: row.row, book: $0, mapping: job.shelfMapping) }
                }
            page.addProblems(
                try await imports.rows(
                    of: job.id, userID: context.userID, outcome: .failed, limit: Self.problemRowsShown), job: job)
            page.offerWithoutDamagedISBNs(try await imports.rowsWithDamagedISBN(jobID: job.id, userID: context.userID))
        case .completed, .canceled, .failed:
            page.addProblems(
                try await imports.rows(
                    of: job.id, userID: context.userID, outcome: .failed, limit: Self.problemRowsShown), job: job)
            page.offerWithoutDamagedISBNs(try await imports.rowsWithDamagedISBN(jobID: job.id, userID: context.userID))
            page.setEnrichment(try await imports.enrichment(of: job.id))
            if matchesTitles { page.setTitleMatching(try await imports.titleMatching(of: context.userID)) }
        default:
            break
        }
        return try renderer.render(page, template: "import/job")
    }

    /// POST /import/:jobID/columns: reads an unknown CSV through the chosen columns.
    @Sendable func chooseColumns(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let job = try await requireJob(context)
        let form = try await request.formFields()
        func column(_ name: String) -> String? {
            form.trimmed(name).flatMap { chosen in job.headers.first { $0 == chosen } }
        }
        let mapping = ColumnMapping(
            title: column("title"), author: column("author"), isbn: column("isbn"), shelf: column("shelf"),
            dateRead: column("date_read"), rating: column("rating"))
        guard mapping.title != nil else {
            var page = ImportJobPage(context: context, job: job)
            page.setMapping(mapping, error: localized("Choose the column that holds each book's title."))
            return try renderer.render(page, template: "import/job", status: .unprocessableContent)
                .response(from: request, context: context)
        }
        guard try await imports.applyMapping(mapping, jobID: job.id, userID: context.userID) != nil else {
            return .seeOther(Paths.importJob(job.id))
        }
        return .seeOther(Paths.importJob(job.id))
    }

    /// POST /import/:jobID/confirm: starts the import with the shelf choices and what to do with known books.
    @Sendable func confirm(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let job = try await requireJob(context)
        let form = try await request.formFields()
        var mapping: [String: Shelf] = [:]
        for (index, name) in job.shelfMapping.keys.sorted().enumerated() {
            if let shelf = form["shelf_\(index)"].flatMap(Shelf.init(rawValue:)) { mapping[name] = shelf }
        }
        let existing = form["existing"].flatMap(ImportJob.Existing.init(rawValue:)) ?? .update
        if try await imports.confirm(jobID: job.id, userID: context.userID, existing: existing, shelfMapping: mapping)
            != nil
        {
            runner.jobConfirmed()
        }
        return .seeOther(Paths.importJob(job.id))
    }

    /// POST /import/:jobID/date-order (`order`: month-first | day-first): answers the preview's one question about
    /// dates such as 3/4/2022, and reads the file's rows again with it.
    @Sendable func chooseDateOrder(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let job = try await requireJob(context)
        let form = try await request.formFields()
        guard let order = form["order"].flatMap(SlashDateOrder.init(rawValue:)) else {
            throw HTTPError(.badRequest, message: localized("Choose how the file writes its dates."))
        }
        _ = try await imports.chooseDateOrder(order, jobID: job.id, userID: context.userID)
        return .seeOther(Paths.importJob(job.id))
    }

    /// POST /import/:jobID/without-damaged-isbns: the one action for the rows whose ISBN a spreadsheet damaged —
    /// each is imported (or, in the preview, queued) without it.
    @Sendable func importWithoutDamagedISBNs(_ request: Request, context: SignedInContext) async throws -> Response {
        let job = try await requireJob(context)
        guard
            try await imports.importWithoutDamagedISBNs(jobID: job.id, userID: context.userID, now: clock.now()) != nil
        else {
            throw HTTPError(.notFound, message: localized("This import has no rows waiting for a fix."))
        }
        return .seeOther(Paths.importJob(job.id) + (job.status.isFinished ? "#results" : ""))
    }

    /// POST /import/:jobID/cancel: a preview is dropped, a running import stops after its current rows.
    @Sendable func cancel(_ request: Request, context: SignedInContext) async throws -> Response {
        let job = try await requireJob(context)
        _ = try await imports.cancel(jobID: job.id, userID: context.userID, now: clock.now())
        return .seeOther(Paths.importJob(job.id))
    }

    /// GET /import/:jobID/events: live progress for the page's script.
    @Sendable func events(_ request: Request, context: SignedInContext) async throws -> Response {
        let job = try await requireJob(context)
        let imports = imports
        let userID = context.userID
        let ticket = try streams.ticket(for: userID, connection: context.channel)
        return ImportEventStream { try await imports.job(id: job.id, of: userID) }
            .response(lastEventID: request.headers[HTTPField.Name("Last-Event-ID")!], holding: ticket)
    }

    /// GET /import/:jobID/failed-rows: the rows that did not import, as CSV with the file's own header and a
    /// column saying why, to fix in a spreadsheet and import again.
    @Sendable func failedRows(_ request: Request, context: SignedInContext) async throws -> Response {
        let job = try await requireJob(context)
        var csv = CSVCell.line(["Row", "Problem"] + job.headers)
        var after = 0
        while true {
            let rows = try await imports.rows(
                of: job.id, userID: context.userID, outcome: .failed, limit: 1_000, after: after)
            for row in rows { csv += CSVCell.line([String(row.row), row.message ?? ""] + row.raw) }
            guard let last = rows.last, rows.count == 1_000 else { break }
            after = last.row
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"shelfed-failed-rows.csv\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    /// POST /import/:jobID/rows/:row: one failed row, fixed by hand and tried again.
    @Sendable func retry(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let job = try await requireJob(context)
        guard let number = BoundedNumber.id(context.parameters.get("row")).map({ Int($0) }) else {
            throw HTTPError(.notFound, message: localized("That row is not part of this import."))
        }
        let form = try await request.formFields()
        let values = job.headers.indices.map { form["cell_\($0)"] ?? "" }
        switch try await imports.retry(
            jobID: job.id, row: number, userID: context.userID, values: values, now: clock.now())
        {
        case .notFound:
            throw HTTPError(
                .notFound, message: localized("That row is not waiting for a fix. It may have been imported already."))
        case .fixed:
            return .seeOther(Paths.importJob(job.id) + "?fixed=\(number)#results")
        case .problem:
            return .seeOther(Paths.importJob(job.id) + "#row-\(number)")
        }
    }

    /// GET /export/goodreads: the library as a Goodreads CSV, to keep or to take to another tracker.
    @Sendable func exportGoodreads(_ request: Request, context: SignedInContext) async throws -> Response {
        let csv = try await GoodreadsExport(db: imports.db).csv(of: context.userID)
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        let day = clock.today()
        headers[.contentDisposition] = "attachment; filename=\"shelfed_library_export_\(day).csv\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    /// GET /export/letterboxd: the films watched, every viewing a row, in the columns Letterboxd's importer reads.
    @Sendable func exportLetterboxd(_ request: Request, context: SignedInContext) async throws -> Response {
        let csv = try await LetterboxdExport(db: imports.db).csv(of: context.userID)
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"shelfed_letterboxd_export_\(clock.today()).csv\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    private func requireJob(_ context: SignedInContext) async throws -> ImportJob {
        guard let id = context.parameters.get("jobID"), let job = try await imports.job(id: id, of: context.userID)
        else {
            throw HTTPError(
                .notFound, message: localized("That import is not in your list. Start a new one from the Import page."))
        }
        return job
    }
}
