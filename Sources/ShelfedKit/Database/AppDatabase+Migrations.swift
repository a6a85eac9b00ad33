import GRDB

extension AppDatabase {
    /// The one ordered list of schema changes. Never edit a shipped migration; append a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 accounts and sessions") { db in
            try db.create(table: "user") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("username", .text).notNull().unique().collate(.nocase)
                t.column("email", .text).notNull().unique().collate(.nocase)
                t.column("display_name", .text).notNull()
                t.column("password_hash", .text).notNull()
                t.column("avatar_photo_id", .integer)
                t.column("reading_goal", .integer)
                t.column("created_at", .datetime).notNull()
            }
            try db.create(table: "session") { t in
                t.primaryKey("key", .text)
                t.column("value", .blob).notNull()
                t.column("expires_at", .datetime)
            }
            try db.create(index: "session_expires_at", on: "session", columns: ["expires_at"])
        }
        migrator.registerMigration("v1 library") { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("google_volume_id", .text).unique()
                t.column("isbn10", .text)
                t.column("isbn13", .text).unique()
                t.column("title", .text).notNull()
                t.column("subtitle", .text)
                t.column("authors", .jsonText).notNull().defaults(to: "[]")
                t.column("publisher", .text)
                t.column("published_date", .text)
                t.column("description", .text)
                t.column("page_count", .integer)
                t.column("categories", .jsonText).notNull().defaults(to: "[]")
                t.column("language", .text)
                t.column("cover_path", .text)
                t.column("source", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("updated_at", .datetime).notNull()
            }
            try db.create(table: "book_author") { t in
                t.column("book_id", .integer).notNull().references("book", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("name", .text).notNull().collate(.nocase)
                t.primaryKey(["book_id", "position"])
            }
            try db.create(index: "book_author_name", on: "book_author", columns: ["name"])
            try db.create(table: "user_book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("book_id", .integer).notNull().indexed().references("book", onDelete: .restrict)
                t.column("shelf", .text).notNull()
                    .check { ["want_to_read", "reading", "read"].contains($0) }
                t.column("favourite", .boolean).notNull().defaults(to: false)
                t.column("rating", .double)
                t.column("review", .text)
                t.column("current_page", .integer)
                t.column("added_at", .datetime).notNull()
                t.column("started_at", .text)
                t.column("finished_at", .text)
                t.column("updated_at", .datetime).notNull()
                t.uniqueKey(["user_id", "book_id"])
            }
            try db.create(index: "user_book_shelf", on: "user_book", columns: ["user_id", "shelf", "added_at"])
            try db.create(index: "user_book_added", on: "user_book", columns: ["user_id", "added_at"])
        }
        migrator.registerMigration("v2 search cache") { db in
            try db.create(table: "search_cache") { t in
                t.primaryKey("key", .text)
                t.column("body", .blob).notNull()
                t.column("fetched_at", .datetime).notNull()
                t.column("expires_at", .datetime).notNull()
            }
            try db.create(index: "search_cache_expires_at", on: "search_cache", columns: ["expires_at"])
        }
        migrator.registerMigration("v3 photos") { db in
            try db.create(table: "photo") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                // Null for a profile picture; otherwise the catalog book the photo belongs to.
                t.column("book_id", .integer).references("book", onDelete: .restrict)
                t.column("original_path", .text).notNull()
                t.column("display_path", .text).notNull()
                t.column("thumb_path", .text).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("bytes", .integer).notNull()
                t.column("sha256", .text)
                t.column("content_type", .text).notNull()
                t.column("page_number", .integer)
                t.column("comment", .text)
                t.column("taken_at", .datetime)
                t.column("created_at", .datetime).notNull()
            }
            try db.create(index: "photo_user_book", on: "photo", columns: ["user_id", "book_id", "created_at"])
            try db.create(index: "photo_user_created", on: "photo", columns: ["user_id", "created_at"])
        }
        migrator.registerMigration("v4 login attempts") { db in
            try db.create(table: "login_attempt") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull()
                t.column("account", .text).notNull()
                t.column("address", .text).notNull()
                t.column("at", .datetime).notNull()
            }
            try db.create(
                index: "login_attempt_pair", on: "login_attempt", columns: ["kind", "account", "address", "at"])
            try db.create(index: "login_attempt_address", on: "login_attempt", columns: ["kind", "address", "at"])
            try db.create(index: "login_attempt_at", on: "login_attempt", columns: ["at"])
        }
        migrator.registerMigration("v5 owned catalog rows", migrate: migrateToOwnedBooks)
        migrator.registerMigration("v6 shelf page indexes") { db in
            // The shelf counts (with favourites) come from the index alone instead of one row read per book.
            try db.create(index: "user_book_counts", on: "user_book", columns: ["user_id", "shelf", "favourite"])
            // Cards show the authors joined; kept beside the JSON by triggers instead of unpacking it per card.
            try db.execute(
                sql: """
                    ALTER TABLE book ADD COLUMN author_names TEXT NOT NULL DEFAULT '';
                    UPDATE book SET author_names = COALESCE((SELECT group_concat(value, ', ') FROM json_each(authors)), '');
                    CREATE TRIGGER book_author_names_insert AFTER INSERT ON book BEGIN
                        UPDATE book SET author_names = COALESCE((SELECT group_concat(value, ', ') FROM json_each(NEW.authors)), '')
                        WHERE id = NEW.id;
                    END;
                    CREATE TRIGGER book_author_names_update AFTER UPDATE OF authors ON book BEGIN
                        UPDATE book SET author_names = COALESCE((SELECT group_concat(value, ', ') FROM json_each(NEW.authors)), '')
                        WHERE id = NEW.id;
                    END;
                    """)
        }
        migrator.registerMigration("v7 api keys") { db in
            // One row per device key; only the SHA-256 of the key is kept, so a copy of the database signs no one in.
            try db.create(table: "api_token") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
                t.column("token_sha256", .text).notNull().unique()
                t.column("label", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("last_used_at", .datetime)
            }
        }
        migrator.registerMigration("v8 imports", migrate: migrateToImports)
        migrator.registerMigration("v9 enrichment", migrate: migrateToEnrichment)
        migrator.registerMigration("v10 photo text and full-text search", migrate: migrateToTextSearch)
        migrator.registerMigration("v11 shelf scans") { db in
            try db.create(table: "shelf_scan") { t in
                t.primaryKey("id", .text)
                t.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
                // queued | running | done | failed
                t.column("status", .text).notNull()
                t.column("progress", .text)
                // JSON: the candidates in shelf order with their matches (ShelfScanService.Match).
                t.column("matches", .text)
                t.column("message", .text)
                t.column("created_at", .datetime).notNull()
                t.column("finished_at", .datetime)
            }
        }
        migrator.registerMigration("v12 import date order") { db in
            try db.alter(table: "import_job") { t in
                // JSON objects keyed by column: `{"date added": "month-first"}` and `{"date added": "3/4/2022"}`.
                t.add(column: "date_orders", .text).notNull().defaults(to: "{}")
                t.add(column: "ambiguous_dates", .text).notNull().defaults(to: "{}")
            }
        }
        migrator.registerMigration("v13 embeddings", migrate: migrateToEmbeddings)
        migrator.registerMigration("v14 search history") { db in
            // A person's own book searches of the last week, for their trending searches; nobody else's.
            try db.create(table: "search_history") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("query", .text).notNull()
                t.column("query_key", .text).notNull()
                t.column("searched_at", .datetime).notNull()
            }
            try db.create(index: "search_history_by_user", on: "search_history", columns: ["user_id", "searched_at"])
        }
        migrator.registerMigration("v15 reading journal", migrate: migrateToJournal)
        migrator.registerMigration("v16 series", migrate: migrateToSeries)
        migrator.registerMigration("v17 did not finish", migrate: migrateToDidNotFinish)
        migrator.registerMigration("v18 book categories", migrate: migrateToBookCategories)
        migrator.registerMigration("v19 list details", migrate: migrateToListDetails)
        migrator.registerMigration("v20 photo touch-ups", migrate: migrateToPhotoTouchUps)
        migrator.registerMigration("v21 household", migrate: migrateToHousehold)
        migrator.registerMigration("v22 sharing", migrate: migrateToSharing)
        migrator.registerMigration("v23 lending", migrate: migrateToLending)
        migrator.registerMigration("v24 borrow requests", migrate: migrateToBorrowRequests)
        migrator.registerMigration("v25 recommendations", migrate: migrateToRecommendations)
        migrator.registerMigration("v26 shared by choice", migrate: migrateToSharedByChoice)
        migrator.registerMigration("v27 house challenge", migrate: migrateToHouseChallenge)
        migrator.registerMigration("v28 recently finished index", migrate: migrateToRecentlyFinishedIndex)
        migrator.registerMigration("v29 backup runs", migrate: migrateToBackupRuns)
        migrator.registerMigration("v30 category years", migrate: migrateToCategoryYears)
        migrator.registerMigration("v31 joining", migrate: migrateToJoining)
        migrator.registerMigration("v32 held embeddings", migrate: migrateToHeldEmbeddings)
        migrator.registerMigration("v33 read next", migrate: migrateToReadNext)
        migrator.registerMigration("v34 feed lines", migrate: migrateToFeedLines)
        migrator.registerMigration("v35 book neighbours", migrate: migrateToBookNeighbours)
        migrator.registerMigration("v36 community rating", migrate: migrateToCommunityRating)
        migrator.registerMigration("v37 for you", migrate: migrateToForYou)
        migrator.registerMigration("v38 shelf counts", migrate: migrateToShelfCounts)
        migrator.registerMigration("v39 house library indexes", migrate: migrateToHouseLibraryIndexes)
        migrator.registerMigration("v40 title kinds", migrate: migrateToTitleKinds)
        migrator.registerMigration("v41 screen providers", migrate: migrateToScreenProviders)
        migrator.registerMigration("v42 show viewings", migrate: migrateToShowViewings)
        migrator.registerMigration("v43 photo moments", migrate: migrateToPhotoMoments)
        migrator.registerMigration("v44 episode days", migrate: migrateToEpisodeDays)
        migrator.registerMigration("v45 original titles", migrate: migrateToOriginalTitles)
        migrator.registerMigration("v46 watched together", migrate: migrateToWatchedTogether)
        migrator.registerMigration("v47 jellyfin", migrate: migrateToJellyfin)
        migrator.registerMigration("v48 page to screen", migrate: migrateToPageToScreen)
        migrator.registerMigration("v49 title matching", migrate: migrateToTitleMatching)
        migrator.registerMigration("v50 jellyfin library", migrate: migrateToJellyfinLibrary)
        migrator.registerMigration("v51 languages", migrate: migrateToLanguages)
        migrator.registerMigration("v52 sort keys", migrate: migrateToSortKeys)
        return migrator
    }
}
