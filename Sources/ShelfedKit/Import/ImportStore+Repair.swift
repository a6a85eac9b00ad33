import Foundation
import GRDB

// MARK: - Repairing a failed row

extension ImportStore {
    enum RetryResult: Equatable {
        /// The fixed row is in: imported now, or (before the import starts) waiting with the others.
        case fixed(ImportRow.Outcome)
        /// Still not importable; the typed values are kept on the row for the next try.
        case problem(String)
        case notFound
    }

    /// Reads a failed row again from the values the person typed and, when it reads, imports it now (or, in the
    /// preview, queues it with the rest of the file).
    func retry(jobID: String, row number: Int, userID: Int64, values: [String], now: Date) async throws -> RetryResult {
        try await db.write { db in
            guard var job = try ImportJob.filter(Column("id") == jobID && Column("user_id") == userID).fetchOne(db),
                // A finished job counts its failed rows; one cancelled in its preview never counted (nor imported)
                // them, so fixing a row there would import a book the person chose not to.
                Self.takesFixes(job),
                var row = try ImportRow.filter(Column("job_id") == jobID && Column("row") == number).fetchOne(db),
                row.outcome == .failed
            else { return .notFound }
            let values =
                Array(values.prefix(job.headers.count))
                + Array(repeating: "", count: max(0, job.headers.count - values.count))
            row.raw = values
            let reading = ImportValues.$slashDateOrders.withValue(job.dateOrders) {
                job.format.reader(mapping: job.columnMapping).read(ImportRecord(headers: job.headers, values: values))
            }
            guard case .book(let book) = reading else {
                if case .problem(let message) = reading { row.message = message }
                if case .skipped(let reason) = reading { row.message = reason }
                try row.update(db)
                return .problem(row.message ?? "The row still cannot be imported.")
            }
            let outcome = try Self.take(book, into: &row, of: &job, userID: userID, now: now, db)
            return .fixed(outcome)
        }
    }

    /// A failed row that now reads as `book`: queued with the rest in the preview, imported now after it.
    private static func take(
        _ book: ImportedBook, into row: inout ImportRow, of job: inout ImportJob, userID: Int64, now: Date,
        _ db: Database
    ) throws -> ImportRow.Outcome {
        row.book = book
        row.message = nil
        if job.status == .preview {
            row.outcome = .pending
            job.summary?.problems -= 1
            job.summary?.count(book)
            try row.update(db)
            try job.update(db)
            return .pending
        }
        var match = try LibraryMatch(db, userID: userID)
        let applied = try ImportApplier(
            jobID: job.id, userID: userID, existing: job.existing, shelfMapping: job.shelfMapping, now: now
        )
        .apply(book, match: &match, db)
        row.outcome = applied.outcome
        row.message = applied.message
        row.userBookId = applied.userBookID
        try row.update(db)
        job.failed -= 1
        switch applied.outcome {
        case .created: job.created += 1
        case .updated: job.updated += 1
        default: job.skipped += 1
        }
        try job.update(db)
        return applied.outcome
    }
}

// MARK: - Rows whose ISBN a spreadsheet damaged

extension ImportStore {
    /// SQL matching the failed rows whose problem is an ISBN a spreadsheet damaged.
    private static let damagedISBNCondition = ImportValues.damagedISBNPhrases.map { _ in "message LIKE ?" }
        .joined(separator: " OR ")
    private static var damagedISBNPatterns: [String] { ImportValues.damagedISBNPhrases.map { "%\($0)%" } }

    /// How many of the job's failed rows fail only on an ISBN a spreadsheet damaged (the page offers to import them
    /// without it). Zero for a job that is not the person's or cannot take fixes.
    func rowsWithDamagedISBN(jobID: String, userID: Int64) async throws -> Int {
        try await db.read { db in
            guard let job = try ImportJob.filter(Column("id") == jobID && Column("user_id") == userID).fetchOne(db),
                Self.takesFixes(job)
            else { return 0 }
            return try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM import_row WHERE job_id = ? AND outcome = 'failed'
                        AND (\(Self.damagedISBNCondition))
                    """, arguments: StatementArguments([jobID] + Self.damagedISBNPatterns)) ?? 0
        }
    }

    /// The one action for rows whose ISBN a spreadsheet damaged beyond what the row can repair: each is read again
    /// leaving the ISBN out (with a note saying so) and, when that is its only problem, queued in the preview or
    /// imported now. The count of rows taken; nil when the job is not the person's or cannot take fixes.
    func importWithoutDamagedISBNs(jobID: String, userID: Int64, now: Date) async throws -> Int? {
        try await db.write { db in
            guard var job = try ImportJob.filter(Column("id") == jobID && Column("user_id") == userID).fetchOne(db),
                Self.takesFixes(job)
            else { return nil }
            let reader = job.format.reader(mapping: job.columnMapping)
            let keys = job.headers.map(ImportRecord.key)
            // All fetched first: updating rows under an open cursor can visit them again.
            let rows = try ImportRow.fetchAll(
                db,
                sql: """
                    SELECT * FROM import_row WHERE job_id = ? AND outcome = 'failed' AND (\(Self.damagedISBNCondition))
                    ORDER BY row
                    """, arguments: StatementArguments([jobID] + Self.damagedISBNPatterns))
            var taken = 0
            for var row in rows {
                let reading = ImportValues.$leavesOutDamagedISBNs.withValue(true) {
                    ImportValues.$slashDateOrders.withValue(job.dateOrders) {
                        reader.read(ImportRecord(keys: keys, values: row.raw))
                    }
                }
                guard case .book(let book) = reading else { continue }
                _ = try Self.take(book, into: &row, of: &job, userID: userID, now: now, db)
                taken += 1
            }
            return taken
        }
    }

    /// A previewed job, or a finished one with failed rows (one cancelled in its preview never imported them);
    /// never scanned barcodes, which are sent again from the phone.
    static func takesFixes(_ job: ImportJob) -> Bool {
        (job.status == .preview || (job.status.isFinished && job.failed > 0)) && job.format != .barcodes
    }
}

// MARK: - Choosing the order of ambiguous dates

extension ImportStore {
    /// Reads every row of a previewed job again with `order` for the columns whose `3/4/2022`-style dates could be
    /// read either way: the one question asked per file instead of a fix per row. False when the job is not the
    /// person's, not in its preview, or had no such question.
    func chooseDateOrder(_ order: SlashDateOrder, jobID: String, userID: Int64) async throws -> Bool {
        try await db.write { db in
            guard var job = try ImportJob.filter(Column("id") == jobID && Column("user_id") == userID).fetchOne(db),
                job.status == .preview, !job.ambiguousDates.isEmpty
            else { return false }
            for column in job.ambiguousDates.keys { job.dateOrders[column] = order }
            job.ambiguousDates = [:]
            let reader = job.format.reader(mapping: job.columnMapping)
            let keys = job.headers.map(ImportRecord.key)
            var summary = ImportSummary()
            try ImportValues.$slashDateOrders.withValue(job.dateOrders) {
                // All fetched first: updating rows under an open cursor can visit them again.
                for var row in try ImportRow.filter(Column("job_id") == jobID).fetchAll(db) {
                    row.book = nil
                    row.message = nil
                    row.outcome = .pending
                    row.take(reader.read(ImportRecord(keys: keys, values: row.raw)), counting: &summary)
                    try row.update(db)
                }
            }
            for name in summary.customShelves.keys where job.shelfMapping[name] == nil {
                job.shelfMapping[name] = .wantToRead
            }
            job.summary = summary
            try job.update(db)
            return true
        }
    }
}
