import Foundation
import Hummingbird
import Logging

/// From a photo to the ISBNs it shows: its barcodes, or, when it has none, an "ISBN …" line printed on it.
struct BarcodeScanService: Sendable {
    enum Source: String, Sendable {
        case barcode
        case printedText = "printed_text"
        case none
    }

    struct Outcome: Sendable {
        var isbns: [ISBN]
        var source: Source
        var otherCodes: [String]
    }

    /// One ISBN and what the providers know of it.
    struct Lookup: Sendable {
        let isbn: ISBN
        let volume: VolumeResult?
        let failure: UpstreamFailure?
        let inLibrary: (bookID: Int64, shelf: Shelf)?
    }

    /// The most ISBNs one scan shows and looks up (a stack of books in one photo).
    static let maxBooks = 10
    let reader: BarcodeReader
    let text: TextRecognizer
    let search: BookSearchService
    let library: LibraryStore
    let scratch: URL
    let logger: Logger

    /// Reads the photo at `url` (which the caller removes afterwards).
    func scan(photoAt url: URL) async throws -> Outcome {
        _ = try ImageProcessor.readableKind(at: url)
        let barcodes = try await reader.scan(photoAt: url)
        if !barcodes.isbns.isEmpty {
            return Outcome(
                isbns: Array(barcodes.isbns.prefix(Self.maxBooks)), source: .barcode, otherCodes: barcodes.otherCodes)
        }
        guard text.isAvailable else { return Outcome(isbns: [], source: .none, otherCodes: barcodes.otherCodes) }
        do {
            let printed = PrintedISBN.find(in: try await text.text(ofPhotoAt: url, scratch: scratch, sparse: true))
            if !printed.isEmpty {
                return Outcome(
                    isbns: Array(printed.prefix(Self.maxBooks)), source: .printedText, otherCodes: barcodes.otherCodes)
            }
        } catch {
            // Reading the printed line is a second chance; the page still offers the ISBN field.
            logger.warning("Reading printed text for an ISBN failed: \(error)")
        }
        return Outcome(isbns: [], source: .none, otherCodes: barcodes.otherCodes)
    }

    /// Looks every ISBN up through the search service (its cache, retries and Open Library fallback) and notes
    /// which are already in `userID`'s library. One provider failure is reported on its own book.
    func lookUp(_ isbns: [ISBN], for userID: Int64) async throws -> [Lookup] {
        var found: [(ISBN, VolumeResult?, UpstreamFailure?)] = []
        for isbn in isbns.prefix(Self.maxBooks) {
            do {
                found.append((isbn, try await search.lookup(isbn: isbn).results.items.first, nil))
            } catch let failure as UpstreamFailure {
                found.append((isbn, nil, failure))
            }
        }
        let owned = try await library.shelves(
            of: userID, volumeIDs: found.compactMap { $0.1?.volumeId }, isbn13s: isbns.map(\.isbn13))
        return found.map { isbn, volume, failure in
            let match = volume.flatMap { SearchController.match($0, in: owned) } ?? owned["isbn:" + isbn.isbn13]
            return Lookup(isbn: isbn, volume: volume, failure: failure, inLibrary: match)
        }
    }
}
