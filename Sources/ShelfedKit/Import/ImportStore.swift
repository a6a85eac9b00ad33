import Foundation
import GRDB

/// Import jobs and their rows. Every query is scoped to the user; another user's job id finds nothing.
struct ImportStore: Sendable {
    let db: AppDatabase
    /// Where a cleaned-up file waits while its owner chooses columns (a CSV of no known tracker).
    let directory: URL

    /// The most rows one file may hold; a Goodreads library of 20 MB is about 40,000 rows.
    static let maxRows = 100_000
    /// Rows written per transaction while staging, so a big file never holds the writer for long.
    static let stagingBatch = 500

    /// The most columns a file may have: trackers' exports have 20 to 60, and every column is shown on the pages
    /// that choose columns and fix rows (3,000 extra columns made a 25 KB upload into a 250 MB page).
    static let maxColumns = 200

    /// Why a file could not be read as a table (`StageError.notACSV`), in English.
    static let notACSVMessage = "The file is empty or is not a CSV or TSV file."

    enum StageError: Error, Equatable {
        case notACSV(String)
        case tooManyRows
        case tooManyColumns(Int)
        case archive(ImportArchive.Failure)
        /// A header and nothing under it (Letterboxd writes such files for what a person never used).
        case noRows
    }

    // MARK: - Staging an upload

    /// Reads an uploaded file into a new job: cleaned to UTF-8, its format told by its headers, each row read
    /// and kept with what it will become. A file of no known format waits in `.mapping` for column choices.
    func stage(upload: URL, fileName: String, userID: Int64, now: Date) async throws -> ImportJob {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let id = ImportJob.newID()
        let clean = cleanFile(id)
        do {
            try await AppDatabase.threadPool.runIfActive { [directory] in
                if ImportArchive.isZIP(upload) {
                    do {
                        try ImportArchive.flatten(upload, to: clean, scratch: directory)
                    } catch let failure as ImportArchive.Failure {
                        throw StageError.archive(failure)
                    }
                } else if TraktExport.isJSONArray(upload) {
                    let size = (try? upload.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
                    guard Int64(size) <= ImportArchive.jsonLimit else {
                        throw StageError.archive(.tooLarge(String(fileName.prefix(100))))
                    }
                    do {
                        try TraktExport.flatten([try Data(contentsOf: upload)], to: clean)
                    } catch let failure as ImportArchive.Failure {
                        throw StageError.archive(failure)
                    }
                } else {
                    _ = try ImportText.normalize(upload, to: clean)
                }
            }
            let table: ImportTable
            do {
                table = try ImportTable(utf8File: clean, fileName: fileName)
            } catch {
                throw StageError.notACSV(Self.notACSVMessage)
            }
            guard table.headers.count <= Self.maxColumns else { throw StageError.tooManyColumns(table.headers.count) }
            var job = ImportJob(
                id: id, userId: userID, format: table.format ?? .mapped, fileName: String(fileName.prefix(200)),
                status: table.format == nil ? .mapping : .staging, headers: table.headers, createdAt: now)
            try await db.write { [job] db in try job.insert(db) }
            guard table.format != nil else {
                job.columnMapping = ColumnMapping.guess(headers: table.headers)
                return job
            }
            job = try await stageRows(of: job, from: clean)
            guard job.total > 0 else { throw StageError.noRows }
            try? FileManager.default.removeItem(at: clean)
            return job
        } catch {
            try? FileManager.default.removeItem(at: clean)
            try? await db.write { db in _ = try ImportJob.deleteOne(db, key: id) }
            throw error
        }
    }

    /// Reads the kept file of a `.mapping` job through the chosen columns.
    func applyMapping(_ mapping: ColumnMapping, jobID: String, userID: Int64) async throws -> ImportJob? {
        guard var job = try await job(id: jobID, of: userID), job.status == .mapping else { return nil }
        job.columnMapping = mapping
        job.status = .staging
        try await db.write { [job] db in try job.update(db) }
        let clean = cleanFile(jobID)
        do {
            job = try await stageRows(of: job, from: clean)
        } catch {
            job.status = .failed
            job.message = "The file could not be read again. Upload it once more."
            try await db.write { [job] db in try job.update(db) }
        }
        try? FileManager.default.removeItem(at: clean)
        return job
    }

    private func stageRows(of job: ImportJob, from clean: URL) async throws -> ImportJob {
        var job = job
        let reader = job.format.reader(mapping: job.columnMapping)
        let writer = db.writer
        let jobID = job.id
        let (summary, evidence) = try await AppDatabase.threadPool.runIfActive {
            () throws -> (ImportSummary, SlashDateEvidence) in
            // Opened here, on the thread that reads it: the reader is not thread-safe.
            let table = try ImportTable(utf8File: clean)
            var summary = ImportSummary()
            var numbering = ImportedViewing.Numbering()
            var tally = ScreenTally()
            var batch: [ImportRow] = []
            func flush() throws {
                let rows = batch
                try writer.write { db in for row in rows { try row.insert(db) } }
                batch.removeAll(keepingCapacity: true)
            }
            let evidence = try Self.readRows(of: table, with: reader) { number, values, reading in
                var row = ImportRow(jobId: jobID, row: number, raw: values, book: nil, outcome: .pending)
                let numbered = numbering.number(reading)
                tally.take(numbered)
                row.take(numbered, counting: &summary)
                batch.append(row)
                if batch.count == Self.stagingBatch { try flush() }
            }
            try flush()
            summary.count(tally)
            return (summary, evidence)
        }
        job.dateOrders = evidence.decided
        job.ambiguousDates = evidence.ambiguous
        job.summary = summary
        job.total = summary.books + summary.problems + summary.skipped
        job.status = .preview
        job.shelfMapping = Dictionary(uniqueKeysWithValues: summary.customShelves.keys.map { ($0, Shelf.wantToRead) })
        try await db.write { [job] db in try job.update(db) }
        return job
    }

    /// Reads every row of `table` with `reader`, handing each to `take` (not in file order: rows holding
    /// `3/4/2022`-style dates come last, once the whole file has said which order each column uses).
    static func readRows(
        of table: ImportTable, with reader: any ImportRowReader,
        _ take: (_ row: Int, _ values: [String], _ reading: ImportRowReading) throws -> Void
    ) throws -> SlashDateEvidence {
        let keys = table.headers.map(ImportRecord.key)
        var evidence = SlashDateEvidence()
        var withSlashDates: [(Int, [String])] = []
        var count = 0
        while let (number, values) = try table.nextValues() {
            count += 1
            guard count <= maxRows else { throw StageError.tooManyRows }
            if evidence.look(at: values, keys: keys) {
                withSlashDates.append((number, values))
            } else {
                try take(number, values, reader.read(ImportRecord(keys: keys, values: values)))
            }
        }
        try ImportValues.$slashDateOrders.withValue(evidence.decided) {
            for (number, values) in withSlashDates {
                try take(number, values, reader.read(ImportRecord(keys: keys, values: values)))
            }
        }
        return evidence
    }

    func cleanFile(_ jobID: String) -> URL {
        directory.appendingPathComponent("\(jobID).csv")
    }

    // MARK: - Reading jobs

    func job(id: String, of userID: Int64) async throws -> ImportJob? {
        guard ImportJob.isWellFormedID(id) else { return nil }
        return try await db.read { db in
            try ImportJob.filter(Column("id") == id && Column("user_id") == userID).fetchOne(db)
        }
    }

    /// The user's imports, newest first, for the "Past imports" list.
    func jobs(of userID: Int64, limit: Int = 50) async throws -> [ImportJob] {
        try await db.read { db in
            try ImportJob.filter(Column("user_id") == userID && Column("status") != ImportJob.Status.staging.rawValue)
                .order(Column("created_at").desc).limit(limit).fetchAll(db)
        }
    }

    /// Rows of a job in file order, optionally of one outcome only.
    func rows(of jobID: String, userID: Int64, outcome: ImportRow.Outcome? = nil, limit: Int = 200, after: Int = 0)
        async throws -> [ImportRow]
    {
        try await db.read { db in
            var request = ImportRow.filter(Column("job_id") == jobID && Column("row") > after)
                .filter(
                    sql: "EXISTS (SELECT 1 FROM import_job WHERE id = ? AND user_id = ?)", arguments: [jobID, userID])
            if let outcome { request = request.filter(Column("outcome") == outcome.rawValue) }
            return try request.order(Column("row")).limit(limit).fetchAll(db)
        }
    }

    // MARK: - Confirming and cancelling

    /// Starts a previewed job with the person's choices; nil when it is not theirs or not waiting.
    func confirm(jobID: String, userID: Int64, existing: ImportJob.Existing, shelfMapping: [String: Shelf])
        async throws -> ImportJob?
    {
        try await db.write { db in
            guard var job = try ImportJob.filter(Column("id") == jobID && Column("user_id") == userID).fetchOne(db),
                job.status == .preview
            else { return nil }
            job.existing = existing
            for (name, shelf) in shelfMapping where job.shelfMapping[name] != nil { job.shelfMapping[name] = shelf }
            job.status = .initialized
            job.failed = job.summary?.problems ?? 0
            job.skipped = job.summary?.skipped ?? 0
            job.processed = job.failed + job.skipped
            try job.update(db)
            return job
        }
    }

    /// Stops a job: a waiting preview is dropped, a running one stops after its current batch. Nil when the job
    /// is not the user's; the job unchanged when it had finished already.
    func cancel(jobID: String, userID: Int64, now: Date) async throws -> ImportJob? {
        let job = try await db.write { db -> ImportJob? in
            guard var job = try ImportJob.filter(Column("id") == jobID && Column("user_id") == userID).fetchOne(db)
            else { return nil }
            guard !job.status.isFinished else { return job }
            job.status = .canceled
            job.finishedAt = now
            job.message = "Cancelled. Books imported before that stay on your shelves."
            try job.update(db)
            return job
        }
        // A job waiting for column choices kept its file; cancelled, it will never read it.
        if job?.status == .canceled { try? FileManager.default.removeItem(at: cleanFile(jobID)) }
        return job
    }
}
