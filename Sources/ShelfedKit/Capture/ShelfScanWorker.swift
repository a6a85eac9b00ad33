import Foundation
import GRDB
import Logging

/// Reads queued shelf photos with Gemini in the background (a `BackgroundWorker`): a scan is a `shelf_scan` row and
/// its photo in `media/.scans/`, so a scan cut off by a restart is queued again and runs to the end instead of being
/// marked failed.
struct ShelfScanWorker: BackgroundWorker {
    let service: ShelfScanService
    let name = "Shelf scans"
    var doorbell: Doorbell { service.doorbell }
    /// Two at once: one person's scan does not wait for another's, and Gemini's answers take seconds.
    let concurrency = 2
    let watchedTables = ["shelf_scan"]
    let idleWait: Duration = .seconds(300)

    private var store: ShelfScanStore { service.store }

    /// Scans that were running go back to the queue; photos no queued scan needs are removed.
    func recover() async throws {
        let waiting = try await store.requeueRunning()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: service.media.scans.path)) ?? []
        for name in names where !waiting.contains(String(name.dropLast(".jpg".count))) {
            try? FileManager.default.removeItem(at: service.media.scans.appendingPathComponent(name))
        }
    }

    /// Claims the oldest queued scan.
    func next() async throws -> String? {
        try await store.claimNext()
    }

    /// Sends the photo, matches what Gemini lists, and records the result; the photo goes once it has a result.
    func run(_ id: String) async throws {
        let photo = service.photo(of: id)
        let finished: (status: String, matches: [ShelfScanService.Match]?, message: String?)
        if let jpeg = try? Data(contentsOf: photo) {
            do {
                let matches = try await service.scan(jpeg) { [store] text in
                    try? await store.setProgress(text, of: id)
                }
                finished = ("done", matches, nil)
            } catch is CancellationError {
                throw CancellationError()  // stopping: left running, queued again at the next start
            } catch let failure as GeminiClient.Failure {
                service.logger.warning("Shelf scan \(id): \(failure)")
                finished = ("failed", nil, failure.message)
            } catch {
                service.logger.error("Shelf scan \(id): \(error)")
                finished = ("failed", nil, GeminiClient.Failure.unavailable.message)
            }
        } else {
            finished = ("failed", nil, "The photo of this shelf was lost. Scan it again.")
        }
        try await store.finish(
            id, status: finished.status, matches: finished.matches, message: finished.message, at: service.now())
        try? FileManager.default.removeItem(at: photo)
    }

    /// A scan whose result could not be recorded is marked failed with `reason`; its photo goes.
    func giveUp(_ id: String, reason: String) async throws {
        let message = "Reading this shelf stopped. \(reason) Scan the shelf again."
        try await store.finish(id, status: "failed", matches: nil, message: message, at: service.now())
        try? FileManager.default.removeItem(at: service.photo(of: id))
    }
}
