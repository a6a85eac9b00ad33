import Foundation
import Hummingbird

/// Adding books by photographing their barcodes: the scan page, the upload, and the page that confirms each book.
struct ScanController: Sendable {
    let scanner: BarcodeScanService
    let media: MediaStore
    let renderer: PageRenderer
    let maxUploadBytes: Int
    let library: LibraryStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.scan.routerPath, use: index)
        router.post(Route.scan.routerPath, use: upload)
        router.get(Route.scanBooks.routerPath, use: books)
    }

    /// GET /scan
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        try renderer.render(ScanPage(context: context, maxUploadMB: maxUploadBytes / 1_048_576), template: "scan/index")
    }

    /// POST /scan (multipart: `_csrf` first, then `photo`): to the books found, or back with what to try.
    @Sendable func upload(_ request: Request, context: SignedInContext) async throws -> Response {
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: context.csrfToken,
            temporaryFile: { media.temporaryFile() },
            tooLargeAdvice: localized("Take the photo again at a smaller size, or type the ISBN."))
        defer { upload.discardFiles() }
        var page = ScanPage(context: context, maxUploadMB: maxUploadBytes / 1_048_576)
        guard let photo = upload.files.first else {
            page.photoError = localized("Choose a photo of the barcode on the back of the book.")
            return try renderer.render(page, template: "scan/index", status: .unprocessableContent).response
        }
        let outcome = try await scanner.scan(photoAt: photo.url)
        guard outcome.isbns.isEmpty else {
            return .seeOther(Paths.scanBooks(outcome.isbns, printed: outcome.source == .printedText))
        }
        page.nothingFound = true
        page.otherCodes = outcome.otherCodes.isEmpty ? nil : outcome.otherCodes.joined(separator: ", ")
        return try renderer.render(page, template: "scan/index").response
    }

    /// GET /scan/books?isbn=…&isbn=…[&from=text]: each book with its cover and a shelf to add it to.
    @Sendable func books(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let typed = query.all("isbn").prefix(BarcodeScanService.maxBooks).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let isbns = typed.compactMap(ISBN.init)
        guard !typed.isEmpty, isbns.count == typed.count else {
            var page = ScanPage(context: context, maxUploadMB: maxUploadBytes / 1_048_576)
            page.typedISBN = String(typed.first { ISBN($0) == nil }?.prefix(40) ?? "")
            page.isbnError =
                typed.isEmpty
                ? localized("Type the 10- or 13-digit ISBN printed above the barcode.")
                : localized(
                    "“{{typed}}” is not an ISBN: check the digits (an ISBN has 10 or 13, the last may be X).",
                    ["typed": page.typedISBN])
            return try renderer.render(page, template: "scan/index", status: .unprocessableContent)
        }
        let lookups = try await scanner.lookUp(isbns, for: context.userID)
        let returnTo = Paths.scanBooks(isbns, printed: query["from"] == "text")
        var page = ScanBooksPage(
            context: context, lookups: lookups, fromPrintedText: query["from"] == "text", returnTo: returnTo)
        page.chrome.toast = try await ActionNotice.toast(
            for: request, context: context, library: library, today: clock.today())
        return try renderer.render(page, template: "scan/books")
    }
}
