import Foundation

/// `scan/index`: take or choose a photo of a barcode, or type the ISBN; after a photo without one, what to try.
struct ScanPage: Sendable {
    let chrome: PageChrome
    let maxUploadMB: Int
    let canReadBarcodes = BarcodeReader.isAvailable
    var photoError: String?
    var nothingFound = false
    /// Shop barcodes that are not ISBNs, when the photo had only those (nil, not empty: Mustache shows "" as true).
    var otherCodes: String?
    var typedISBN = ""
    var isbnError: String?

    init(context: some PageContext, maxUploadMB: Int) {
        chrome = PageChrome(title: localized("Scan a barcode"), context: context, tab: .shelves)
        self.maxUploadMB = maxUploadMB
    }
}

/// `scan/books`: the books a scan found, each to confirm onto a shelf.
struct ScanBooksPage: Sendable {
    struct Found: Sendable {
        let isbn: String
        let title: String?
        let authors: String?
        let year: String?
        let coverURL: String
        let inLibraryShelf: String?
        let bookPath: String?
        let failure: String?
        let manualAddPath: String
        let shelves: [ShelfOption]
    }

    struct ShelfOption: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    var chrome: PageChrome
    let books: [Found]
    let heading: String
    let fromPrintedText: Bool
    let returnTo: String

    init(context: some PageContext, lookups: [BarcodeScanService.Lookup], fromPrintedText: Bool, returnTo: String) {
        heading =
            lookups.count == 1
            ? localized("Is this the book?")
            : localized(one: "{{count}} book found", other: "{{count}} books found", count: lookups.count)
        chrome = PageChrome(title: heading, context: context, tab: .shelves)
        self.fromPrintedText = fromPrintedText
        self.returnTo = returnTo
        books = lookups.map { lookup in
            let volume = lookup.volume
            return Found(
                isbn: lookup.isbn.isbn13, title: volume?.title,
                authors: volume.flatMap { $0.authors.isEmpty ? nil : $0.authors.joined(separator: ", ") },
                year: volume?.year, coverURL: volume?.thumbnailURL ?? BookCover.placeholder,
                inLibraryShelf: lookup.inLibrary?.shelf.title, bookPath: lookup.inLibrary.map { Paths.book($0.bookID) },
                failure: lookup.failure?.userMessage,
                manualAddPath: Paths.newBook + "?isbn=" + lookup.isbn.isbn13,
                shelves: Shelf.allCases.map {
                    ShelfOption(value: $0.rawValue, label: $0.title, selected: $0 == .wantToRead)
                })
        }
    }
}
