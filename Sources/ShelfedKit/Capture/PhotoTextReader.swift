import Foundation
import GRDB
import Logging

/// Reads the words on every stored page photo with tesseract, in the background and off the request path: at most
/// `workers` photos at once (one by default, so a Pi's other core stays with the web server), oldest first. The
/// queue is the photo table itself (`ocr_status = 'pending'`), so a restart carries on; a photo being read when the
/// server stopped is read again. Text the owner has edited is never overwritten.
final class PhotoTextReader: BackgroundWorker {
    let photos: PhotoStore
    let media: MediaStore
    let recognizer: TextRecognizer
    let workers: Int
    let logger: Logger
    let name = "Reading photos"
    let doorbell = Doorbell()
    let watchedTables = ["photo"]
    let idleWait: Duration = .seconds(300)
    var concurrency: Int { workers }

    /// `workers` 0: nothing is read in the background (photos stay `pending` until reading is turned on).
    init(db: AppDatabase, media: MediaStore, recognizer: TextRecognizer, workers: Int = 1, logger: Logger) {
        self.photos = PhotoStore(db: db)
        self.media = media
        self.recognizer = recognizer
        self.workers = max(0, workers)
        self.logger = logger
    }

    /// Tells the reader a photo is waiting (it also looks every half minute).
    func photoStored() {
        doorbell.ring()
    }

    /// Whether photos are read at all: workers configured and tesseract installed; says why not when not.
    func isEnabled() -> Bool {
        guard workers > 0 else {
            logger.info("Reading the words on photos is turned off (SHELFED_OCR_WORKERS=0).")
            return false
        }
        guard recognizer.isAvailable else {
            logger.notice("tesseract is not installed (Debian: tesseract-ocr); photos' words will be read once it is.")
            return false
        }
        return true
    }

    /// A photo being read when the server stopped is read again.
    func recover() async throws {
        try await photos.requeuePhotosBeingRead()
    }

    /// Reads every waiting photo; for tests and benchmarks.
    func runUntilIdle() async throws {
        while try await readNext() {}
    }

    /// Reads the oldest waiting photo; false when none waits.
    @discardableResult
    func readNext() async throws -> Bool {
        guard let claimed = try await next() else { return false }
        try await run(claimed)
        return true
    }

    /// Claims the oldest waiting photo; nil when none waits.
    func next() async throws -> ClaimedPhoto? {
        try await photos.claimPhotoToRead()
    }

    /// Reads the claimed photo's words and keeps them, unless its owner edited or deleted it meanwhile.
    func run(_ claimed: ClaimedPhoto) async throws {
        let status: PhotoText.Status
        let text: String?
        do {
            let raw = try await recognizer.text(
                ofPhotoAt: media.root.appendingPathComponent(claimed.path), scratch: media.reading, background: true)
            let cleaned = PhotoText.cleaned(raw)
            text = cleaned.isEmpty ? nil : cleaned
            status = .done
        } catch is CancellationError {
            throw CancellationError()  // stopping: left as `reading`, which the next start reads again
        } catch {
            logger.warning("Could not read the words of photo \(claimed.id): \(error)")
            text = nil
            status = .failed
        }
        try await photos.recordText(text, status: status, of: claimed.id)
    }
}

extension PhotoTextReader {
    /// A photo whose words could not be stored is marked failed, so its page says so instead of "reading".
    func giveUp(_ claimed: ClaimedPhoto, reason: String) async throws {
        try await photos.recordText(nil, status: .failed, of: claimed.id)
    }
}

/// A photo taken from the queue to be read.
struct ClaimedPhoto: Sendable {
    let id: Int64
    let path: String
}
