import Foundation
import GRDB

/// How far the enrichment of one import's books has got, for its page and the API's results.
struct EnrichmentProgress: Sendable, Equatable {
    var enriched = 0
    var failed = 0
    var pending = 0
    /// Of the pending, those waiting for the next day's Google Books allowance.
    var waitingForBudget = 0

    var total: Int { enriched + failed + pending }
    var isFinished: Bool { pending == 0 }

    static func of(jobID: String, _ db: Database) throws -> EnrichmentProgress {
        var progress = EnrichmentProgress()
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT status, COUNT(*) AS count, SUM(last_error = ?) AS waiting FROM enrichment_queue
                WHERE job_id = ? GROUP BY status
                """, arguments: [EnrichmentWorker.waitingForBudget, jobID])
        for row in rows {
            let count: Int = row["count"]
            switch row["status"] as String {
            case "enriched": progress.enriched = count
            case "failed": progress.failed = count
            default:
                progress.pending += count
                progress.waitingForBudget += row["waiting"] ?? 0
            }
        }
        return progress
    }
}
