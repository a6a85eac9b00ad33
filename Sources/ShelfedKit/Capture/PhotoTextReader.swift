import Foundation
import GRDB
import Logging
import ServiceLifecycle

/// Reads the words on every stored page photo with tesseract, in the background and off the request path: at most
/// `workers` photos at once (one by default, so a Pi's other core stays with the web server), oldest first. The
/// queue is the photo table itself (`ocr_status = 'pending'`), so a restart carries on; a photo being read when the
/// server stopped is read again. Text the owner has edited is never overwritten.
final class PhotoTextReader: Service, Sendable {
    let db: AppDatabase
    let media: MediaStore
    let recognizer: TextRecognizer
    let workers: Int
    let logger: Logger
    private let wakeUp = WakeSignal()

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
        wakeUp.ring()
    }

    func run() async throws {
        guard workers > 0 else {
            logger.info("Reading the words on photos is turned off (SHELFED_OCR_WORKERS=0).")
            try? await gracefulShutdown()
            return
        }
        guard recognizer.isAvailable else {
            logger.notice("tesseract is not installed (Debian: tesseract-ocr); photos' words will be read once it is.")
            try? await gracefulShutdown()
            return
        }
        try await db.write { db in
            try db.execute(sql: "UPDATE photo SET ocr_status = 'pending' WHERE ocr_status = 'reading'")
        }
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let worked = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<self.workers { group.addTask { await self.readNextLogged() } }
                    return await group.reduce(false) { $0 || $1 }
                }
                if worked { continue }
                await self.wakeUp.wait(atMost: .seconds(30))
            }
        }
    }

    /// Reads every waiting photo; for tests and benchmarks.
    func runUntilIdle() async throws {
        while try await readNext() {}
    }

    private func readNextLogged() async -> Bool {
        do {
            return try await readNext()
        } catch is CancellationError {
            return false
        } catch {
            logger.error("Reading a photo's text: \(error)")
            return false
        }
    }

    /// Reads the oldest waiting photo; false when none waits.
    @discardableResult
    func readNext() async throws -> Bool {
        let claimed = try await db.write { db -> (id: Int64, path: String)? in
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
            return (row["id"], row["display_path"])
        }
        guard let claimed else { return false }
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
        return true
    }
}
