import GRDB

extension AppDatabase {
    /// What imports bring (DESIGN §4): notes, owned and format on a shelf entry, re-reads, lists, other
    /// trackers' ids, and the jobs with one row per line of the file, so a job resumes after a restart and a
    /// failed line can be repaired.
    static func migrateToImports(_ db: Database) throws {
        try db.alter(table: "user_book") { t in
            t.add(column: "private_notes", .text)
            t.add(column: "owned", .boolean)
            t.add(column: "format", .text)
        }
        try db.alter(table: "book") { t in
            t.add(column: "external_ids", .jsonText).notNull().defaults(to: "{}")
        }
        // Imports match a row to the user's books by either ISBN, from the book's side.
        try db.create(index: "book_isbn13", on: "book", columns: ["isbn13"])
        try db.create(index: "book_isbn10", on: "book", columns: ["isbn10"])
        try db.create(index: "user_book_rating", on: "user_book", columns: ["user_id", "rating"])
        try db.create(table: "read_through") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("user_book_id", .integer).notNull().indexed().references("user_book", onDelete: .cascade)
            t.column("started_at", .text)
            t.column("finished_at", .text)
        }
        try db.create(table: "list") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            t.column("name", .text).notNull().collate(.nocase)
            t.column("position", .integer).notNull()
            t.uniqueKey(["user_id", "name"])
        }
        try db.create(table: "list_item") { t in
            t.column("list_id", .integer).notNull().references("list", onDelete: .cascade)
            t.column("user_book_id", .integer).notNull().indexed().references("user_book", onDelete: .cascade)
            t.primaryKey(["list_id", "user_book_id"])
        }
        try db.create(table: "import_job") { t in
            // Random, so one user cannot guess another's job.
            t.primaryKey("id", .text)
            t.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            t.column("format", .text).notNull()
            t.column("file_name", .text).notNull()
            t.column("status", .text).notNull()
            t.column("existing", .text).notNull().defaults(to: "update")
            t.column("shelf_mapping", .jsonText).notNull().defaults(to: "{}")
            t.column("column_mapping", .jsonText)
            t.column("headers", .jsonText).notNull().defaults(to: "[]")
            t.column("summary", .jsonText)
            t.column("auth_token_sha256", .text)
            t.column("total", .integer).notNull().defaults(to: 0)
            t.column("processed", .integer).notNull().defaults(to: 0)
            t.column("created", .integer).notNull().defaults(to: 0)
            t.column("updated", .integer).notNull().defaults(to: 0)
            t.column("skipped", .integer).notNull().defaults(to: 0)
            t.column("failed", .integer).notNull().defaults(to: 0)
            t.column("message", .text)
            t.column("created_at", .datetime).notNull()
            t.column("started_at", .datetime)
            t.column("finished_at", .datetime)
        }
        try db.create(index: "import_job_status", on: "import_job", columns: ["status", "created_at"])
        try db.create(table: "import_row") { t in
            t.column("job_id", .text).notNull().references("import_job", onDelete: .cascade)
            t.column("row", .integer).notNull()
            t.column("raw", .jsonText).notNull()
            t.column("book", .jsonText)
            t.column("outcome", .text).notNull()
            t.column("message", .text)
            t.column("user_book_id", .integer)
            t.primaryKey(["job_id", "row"])
        }
        try db.create(index: "import_row_outcome", on: "import_row", columns: ["job_id", "outcome", "row"])
        try db.create(table: "enrichment_queue") { t in
            t.primaryKey("book_id", .integer).references("book", onDelete: .cascade)
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("next_try_at", .datetime).notNull()
            t.column("last_error", .text)
        }
    }

    /// Enrichment keeps each queued book's outcome (so an import's page can count them) and the Google Books
    /// calls made per day against `SHELFED_GOOGLE_DAILY_BUDGET`.
    static func migrateToEnrichment(_ db: Database) throws {
        try db.alter(table: "enrichment_queue") { t in
            t.add(column: "job_id", .text)
            // pending | enriched | failed
            t.add(column: "status", .text).notNull().defaults(to: "pending")
            t.add(column: "finished_at", .datetime)
        }
        try db.create(index: "enrichment_queue_due", on: "enrichment_queue", columns: ["status", "next_try_at"])
        try db.create(index: "enrichment_queue_job", on: "enrichment_queue", columns: ["job_id", "status"])
        try db.create(table: "google_budget") { t in
            t.primaryKey("day", .text)
            t.column("calls", .integer).notNull()
        }
    }
}
