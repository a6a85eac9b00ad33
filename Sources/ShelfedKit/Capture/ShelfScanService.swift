import CImaging
import CMemory
import Foundation
import GRDB
import Logging
import NIOPosix

/// A whole shelf from one photo: the photo, shrunk and stripped of EXIF and GPS, goes to Gemini, which lists the
/// spines it sees; each is matched through the search service. On the web it runs in the background with its
/// progress in `shelf_scan`; the API waits for it.
struct ShelfScanService: Sendable {
    /// One book Gemini listed, and what the search service matched it to.
    struct Match: Codable, Sendable, Equatable {
        var candidate: GeminiClient.Candidate
        var volumeID: String?
        var isbn13: String?
        var title: String?
        var authors: [String]?
        var year: String?
        var thumbnailURL: String?
        /// Checked for adding on the review page: the model was sure and the match's title agrees.
        var confident: Bool
        /// The same book as an earlier entry (the model listed it twice).
        var duplicate: Bool
        /// Why no match could be looked up (a provider outage), when that is why.
        var failure: String?
        /// Set once the user has added it.
        var addedBookID: Int64?
    }

    struct Scan: Sendable {
        let id: String
        let userID: Int64
        let status: String
        let progress: String?
        let matches: [Match]
        let message: String?
    }

    /// The side of the picture Gemini gets: enough to read spines, a fraction of the upload.
    static let imageSide = 2048
    static let confidentAbove = 0.7
    let gemini: GeminiClient
    let search: BookSearchService
    let db: AppDatabase
    var store: ShelfScanStore { ShelfScanStore(db: db) }
    let media: MediaStore
    /// Its limiter keeps shelf photos within the memory every image upload shares.
    let processor: ImageProcessor
    let logger: Logger
    let now: @Sendable () -> Date
    /// Rings `ShelfScanWorker` when a scan is queued.
    let doorbell: Doorbell

    var isConfigured: Bool { gemini.settings.apiKey != nil }

    /// The upload as the JPEG Gemini gets: upright, at most `imageSide`, without EXIF or GPS.
    func preparedImage(from upload: URL) async throws -> Data {
        _ = try ImageProcessor.readableKind(at: upload)
        let maxPixels = processor.maxMegapixels * 1_000_000
        let cost = try await processor.threadPool.runInLanguage {
            try ImageProcessor.decodingCost(of: upload, maxPixels)
        }
        let shrunk = media.temporaryFile("-shelf.jpg")
        defer { try? FileManager.default.removeItem(at: shrunk) }
        let made = try await processor.limiter.run(cost: cost) {
            try await processor.threadPool.runIfActive { () -> Bool in
                defer { shelfed_vips_clear_error() }
                var width: Int32 = 0
                var height: Int32 = 0
                return shelfed_vips_derive(upload.path, shrunk.path, Int32(Self.imageSide), 0, 85, &width, &height) == 0
            }
        }
        guard made else {
            throw AppError.unsupportedMedia(
                localized("That file could not be read as a picture; it may be damaged or cut short.") + " "
                    + localized("Try the photo again."))
        }
        shelfed_release_free_memory()
        return try Data(contentsOf: shrunk)
    }

    /// Asks Gemini and matches every book it lists; `progress` hears how far matching has got.
    func scan(_ jpeg: Data, progress: @Sendable (String) async -> Void = { _ in }) async throws -> [Match] {
        await progress("Gemini is reading the spines…")
        let candidates = try await gemini.books(inJPEG: jpeg)
        var matches: [Match] = []
        for (index, candidate) in candidates.enumerated() {
            await progress("Matching book \(index + 1) of \(candidates.count)…")
            matches.append(await match(candidate, after: matches))
        }
        return matches
    }

    private func match(_ candidate: GeminiClient.Candidate, after earlier: [Match]) async -> Match {
        var match = Match(candidate: candidate, confident: false, duplicate: false)
        do {
            var volume: VolumeResult?
            if let isbn = candidate.isbn.flatMap(ISBN.init) {
                volume = try await search.lookup(isbn: isbn).results.items.first
            }
            if volume == nil {
                let text = [candidate.title, candidate.author].compactMap { $0 }.joined(separator: " ")
                volume = try await search.search(SearchRequest(text: text, field: .all)).results.items.first
            }
            if let volume {
                match.volumeID = volume.volumeId
                match.isbn13 = volume.isbn13
                match.title = volume.title
                match.authors = volume.authors
                match.year = volume.year
                match.thumbnailURL = volume.thumbnailURL
            }
        } catch let failure as UpstreamFailure {
            match.failure = failure.userMessage
        } catch {
            match.failure = "This book could not be looked up. Search for it by hand."
        }
        match.duplicate = earlier.contains { other in
            (match.volumeID != nil && other.volumeID == match.volumeID)
                || (match.isbn13 != nil && other.isbn13 == match.isbn13)
                || Self.folded(other.candidate.title) == Self.folded(candidate.title)
        }
        match.confident =
            !match.duplicate && candidate.confidence >= Self.confidentAbove
            && match.title.map { Self.titlesAgree(candidate.title, $0) } == true
        return match
    }

    /// The same title, ignoring case and punctuation, or one is the other's main title before a subtitle
    /// ("Dune" and "Dune: Deluxe Edition"). A mere prefix is not enough: "Dune" is not "Dune Messiah", and a spine
    /// reading "Harry Potter" could be any of seven books — those are left for the user to check.
    static func titlesAgree(_ seen: String, _ matched: String) -> Bool {
        let seenFolded = folded(seen)
        let matchedFolded = folded(matched)
        guard !seenFolded.isEmpty, !matchedFolded.isEmpty else { return false }
        return seenFolded == matchedFolded || folded(mainTitle(matched)) == seenFolded
            || folded(mainTitle(seen)) == matchedFolded
    }

    /// The title before a subtitle: up to the first colon, dash set off by spaces, or opening parenthesis.
    static func mainTitle(_ title: String) -> String {
        let separators = [":", " - ", " – ", " — ", "("]
        let cut = separators.compactMap { title.range(of: $0)?.lowerBound }.min() ?? title.endIndex
        return String(title[..<cut])
    }

    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            .map(String.init).joined()
    }

    // MARK: The web's background scans

    /// Keeps `jpeg` until its scan has run and queues the scan for `ShelfScanWorker`; returns its id.
    func start(_ jpeg: Data, for userID: Int64) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(at: media.scans, withIntermediateDirectories: true)
        try jpeg.write(to: photo(of: id), options: .atomic)
        do {
            try await store.insertQueued(id: id, userID: userID, at: now())
        } catch {
            try? FileManager.default.removeItem(at: photo(of: id))
            throw error
        }
        doorbell.ring()
        return id
    }

    /// Where a queued scan's photo waits.
    func photo(of scanID: String) -> URL {
        media.scans.appendingPathComponent("\(scanID).jpg")
    }

    /// The user's scan `id`; nil when it is unknown or someone else's.
    func scan(id: String, of userID: Int64) async throws -> Scan? {
        try await store.scan(id: id, of: userID)
    }

    /// Notes which entries were added, so the review page shows them on their shelf.
    func recordAdded(_ matches: [Match], scanID: String, userID: Int64) async throws {
        try await store.recordMatches(matches, scanID: scanID, userID: userID)
    }
}
