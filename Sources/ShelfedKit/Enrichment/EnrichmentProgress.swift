import Foundation

/// How far the enrichment of one import's books has got, for its page and the API's results.
struct EnrichmentProgress: Sendable, Equatable {
    var enriched = 0
    var failed = 0
    var pending = 0
    /// Of the pending, those waiting for the next day's Google Books allowance.
    var waitingForBudget = 0
    /// Of all the job's books, those with a description now (from the export, a provider or a person): what search
    /// by meaning reads.
    var withDescription = 0

    var total: Int { enriched + failed + pending }
    var isFinished: Bool { pending == 0 }
}
