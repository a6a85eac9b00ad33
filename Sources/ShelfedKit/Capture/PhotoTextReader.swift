import Foundation
import GRDB
import Logging

/// Reads the words on every stored page photo with tesseract, in the background and off the request path: at most
/// `workers` photos at once (one by default, so a Pi's other core stays with the web server), oldest first. The
/// queue is the photo table itself (`ocr_status = 'pending'`), so a restart carries on; a photo being read when the
/// server stopped is read again. Text the owner has edited is never overwritten.
final class PhotoTextReader: BackgroundWorker {
    let db: AppDatabase
    let media: MediaStore
    let recognizer: TextRecognizer
    let workers: Int
    let logger: Logger
    let name = "Reading photos"
    let doorbell = Doorbell()
    let idleWait: Duration = .seconds(30)
    var concurrency: Int { workers }

    /// `workers` 0: nothing is read in the background (photos stay `pending` until reading is turned on).
    init(db: AppDatabase, media: MediaStore, recognizer: TextRecognizer, workers: Int = 1, logger: Logger) {
        self.db = db
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
        try await db.write { db in
            try db.execute(sql: "UPDATE photo SET ocr_status = 'pending' WHERE ocr_status = 'reading'")
        }
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
        try await db.write { db -> ClaimedPhoto? in
            // Claimed in the same write that finds it, so two workers never read one photo.
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        UPDATE photo SET ocr_status = 'reading'
                        WHERE id = (SELECT id FROM photo WHERE ocr_status = 'pending' ORDER BY id LIMIT 1)
                        RETURNING id, display_path
                        """)
            else { return nil }
            return ClaimedPhoto(id: row["id"], path: row["display_path"])
        }
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
        try await db.write { db in
            // Only a photo still being read: one edited or deleted meanwhile keeps what its owner did.
            try db.execute(
                sql: "UPDATE photo SET ocr_text = ?, ocr_status = ? WHERE id = ? AND ocr_status = 'reading'",
                arguments: [text, status.rawValue, claimed.id])
        }
    }
}

extension PhotoTextReader {
    /// A photo whose words could not be stored is marked failed, so its page says so instead of "reading".
    func giveUp(_ claimed: ClaimedPhoto, reason: String) async throws {
        try await db.write { db in
            try db.execute(
                sql: "UPDATE photo SET ocr_status = ? WHERE id = ? AND ocr_status = 'reading'",
                arguments: [PhotoText.Status.failed.rawValue, claimed.id])
        }
    }
}

/// A photo taken from the queue to be read.
struct ClaimedPhoto: Sendable {
    let id: Int64
    let path: String
}
