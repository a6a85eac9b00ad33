import Foundation
import GRDB

// MARK: - For the API

extension ImportStore {
    /// Keeps the SHA-256 of the token that may cancel the job (DESIGN §6).
    func setAuthToken(_ digest: String, jobID: String) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE import_job SET auth_token_sha256 = ? WHERE id = ?", arguments: [digest, jobID])
        }
    }

    /// A job of ISBNs sent by the phone app (`POST /api/batch-enrich`), confirmed at once: each is looked up and
    /// added to Want to read by `BarcodeJobRunner`.
    func stageBarcodes(_ barcodes: [String], userID: Int64, authTokenSha256: String, now: Date) async throws
        -> ImportJob
    {
        let job = ImportJob(
            id: ImportJob.newID(), userId: userID, format: .barcodes, fileName: "Barcodes from the phone app",
            status: .initialized, headers: ["ISBN"], authTokenSha256: authTokenSha256, total: barcodes.count,
            createdAt: now)
        try await db.write { db in
            try job.insert(db)
            for (index, barcode) in barcodes.enumerated() {
                try ImportRow(jobId: job.id, row: index + 1, raw: [barcode], book: nil, outcome: .pending).insert(db)
            }
        }
        return job
    }

    /// How far the filling-in of this job's books has got.
    func enrichment(of jobID: String) async throws -> EnrichmentProgress {
        try await db.read { db in try EnrichmentQueueStore.progress(ofJob: jobID, db) }
    }

    /// A job whoever owns it: only for `DELETE /v1/jobs/{jobId}`, which checks the job's own token or its owner's key.
    func anyJob(id: String) async throws -> ImportJob? {
        guard ImportJob.isWellFormedID(id) else { return nil }
        return try await db.read { db in try ImportJob.fetchOne(db, key: id) }
    }

    /// The catalog rows a job created or updated (and, with `includingSkipped`, those it found already there), in
    /// file order.
    func importedBooks(of jobID: String, userID: Int64, limit: Int, includingSkipped: Bool = false) async throws
        -> [Book]
    {
        let outcomes = includingSkipped ? "('created', 'updated', 'skipped')" : "('created', 'updated')"
        return try await db.read { db in
            try Book.fetchAll(
                db,
                sql: """
                    SELECT book.* FROM import_row
                    JOIN import_job ON import_job.id = import_row.job_id AND import_job.user_id = ?
                    JOIN user_book ON user_book.id = import_row.user_book_id AND user_book.user_id = ?
                    JOIN book ON book.id = user_book.book_id
                    WHERE import_row.job_id = ? AND import_row.outcome IN \(outcomes)
                    ORDER BY import_row.row LIMIT ?
                    """, arguments: [userID, userID, jobID, limit])
        }
    }
}

extension ImportStore.StageError {
    /// What is wrong with the file and what to do, in the request's language: the import page's message and the
    /// API's.
    var advice: String {
        switch self {
        case .notACSV(let message):
            // Staging gives one message, in English; the page shows it in its own language.
            let problem =
                message == ImportStore.notACSVMessage
                ? localized("The file is empty or is not a CSV or TSV file.") : message
            return problem + " " + localized("Export your library as CSV from your old tracker and try again.")
        case .tooManyRows:
            return localized("That file has more than 100,000 rows. Split it and import each part.")
        case .tooManyColumns(let count):
            return Self.columnsAdvice(count)
        case .noRows:
            return localized("That file has its column names but no rows, so there is nothing to import.") + " "
                + Self.checkTheExport
        case .archive(.notAnExport):
            return localized("That file holds none of the exports Shelfed reads.") + " "
                + localized("Upload Letterboxd's or Trakt's export ZIP as it was downloaded, or one of its files") + " "
                + localized("(Letterboxd's watched.csv or diary.csv, Trakt's watched-shows.json …).")
        case .archive(.tooLarge(let name)):
            let limits = localized(
                "{{entry}} MB a file, {{json}} MB of Trakt's JSON",
                ["entry": String(ImportArchive.entryLimit >> 20), "json": String(ImportArchive.jsonLimit >> 20)])
            return localized(
                "{{name}} is larger than Shelfed reads from one export ({{limits}}), so it was not read.",
                ["limits": limits, "name": name]) + " " + localized("Upload the export's files one by one instead.")
        case .archive(.damaged):
            return localized(
                "That ZIP is damaged and cannot be opened. Download the export again and upload it as it comes.")
        }
    }

    /// What to do about a file with too many columns.
    static func columnsAdvice(_ count: Int) -> String {
        localized("That file has {{count}} columns;", ["count": String(count)]) + " "
            + localized(
                "exports from reading trackers have at most about 60, and Shelfed reads up to {{max}}.",
                ["max": String(ImportStore.maxColumns)]) + " "
            + localized("Check that it is your library's export, or delete the extra columns.")
    }

    private static var checkTheExport: String {
        localized(
            "Check that it is the export of your library (for Letterboxd, the whole ZIP or watched.csv and diary.csv).")
    }
}
