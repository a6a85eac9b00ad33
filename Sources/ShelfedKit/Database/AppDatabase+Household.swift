import GRDB

extension AppDatabase {
    /// The household (issue 25, DESIGN §15): a role per account — the first is the admin — one-time invitations and
    /// password links, both kept only as SHA-256 digests of their tokens.
    static func migrateToHousehold(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'));
                UPDATE user SET role = 'admin' WHERE id = (SELECT MIN(id) FROM user);
                CREATE TABLE invitation (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    token_sha256 TEXT NOT NULL UNIQUE,
                    created_by INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    note TEXT,
                    created_at DATETIME NOT NULL,
                    expires_at DATETIME NOT NULL,
                    used_at DATETIME,
                    used_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
                    revoked_at DATETIME
                );
                CREATE TABLE password_link (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    token_sha256 TEXT NOT NULL UNIQUE,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    created_at DATETIME NOT NULL,
                    expires_at DATETIME NOT NULL,
                    used_at DATETIME
                );
                CREATE INDEX password_link_by_user ON password_link(user_id);
                """)
    }
}

extension AppDatabase {
    /// Sharing (issue 25): off for everyone until each person turns it on.
    static func migrateToSharing(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user ADD COLUMN shares_reading BOOLEAN NOT NULL DEFAULT 0;
                -- The house feed reads each kind of event newest first, only as far as a page reaches.
                CREATE INDEX user_book_by_started ON user_book(started_at) WHERE started_at IS NOT NULL;
                CREATE INDEX user_book_by_finished ON user_book(finished_at) WHERE finished_at IS NOT NULL;
                CREATE INDEX user_book_by_stopped ON user_book(stopped_at) WHERE stopped_at IS NOT NULL;
                CREATE INDEX journal_entry_by_day ON journal_entry(read_on);
                """)
    }
}

extension AppDatabase {
    /// Owned copies and lending (issue 25): where a copy is kept, and its loans. A loan to a member keeps their name,
    /// so removing the member leaves the lender a loan to a name rather than an orphan.
    static func migrateToLending(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user_book ADD COLUMN location TEXT;
                CREATE TABLE loan (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_book_id INTEGER NOT NULL REFERENCES user_book(id) ON DELETE CASCADE,
                    borrower_user_id INTEGER REFERENCES user(id) ON DELETE SET NULL,
                    borrower_name TEXT NOT NULL,
                    lent_on TEXT NOT NULL,
                    due_on TEXT,
                    returned_on TEXT
                );
                CREATE UNIQUE INDEX loan_open_by_copy ON loan(user_book_id) WHERE returned_on IS NULL;
                CREATE INDEX loan_open_by_borrower ON loan(borrower_user_id) WHERE returned_on IS NULL;
                """)
    }
}

extension AppDatabase {
    /// Borrow requests (issue 25): a member asks for another's copy; the owner lends it or declines.
    static func migrateToBorrowRequests(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE borrow_request (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_book_id INTEGER NOT NULL REFERENCES user_book(id) ON DELETE CASCADE,
                    requester_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    created_at DATETIME NOT NULL,
                    answer TEXT CHECK (answer IN ('lent', 'declined')),
                    answered_at DATETIME
                );
                CREATE UNIQUE INDEX borrow_request_open ON borrow_request(user_book_id, requester_id)
                    WHERE answer IS NULL;
                CREATE INDEX borrow_request_by_requester ON borrow_request(requester_id);
                """)
    }
}

extension AppDatabase {
    /// Recommendations (issue 25): one member suggests a book to another, with a note.
    static func migrateToRecommendations(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE recommendation (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    from_user INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    to_user INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    note TEXT,
                    created_at DATETIME NOT NULL,
                    dismissed_at DATETIME
                );
                CREATE INDEX recommendation_to ON recommendation(to_user, created_at) WHERE dismissed_at IS NULL;
                """)
    }
}

extension AppDatabase {
    /// Sharing by choice (issue 25): a review, a photo or a list reaches the household only when its owner marks it
    /// and also shares their reading. The day a photo or list was shared dates its feed item.
    static func migrateToSharedByChoice(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user_book ADD COLUMN review_shared BOOLEAN NOT NULL DEFAULT 0;
                ALTER TABLE photo ADD COLUMN shared_at DATETIME;
                ALTER TABLE list ADD COLUMN shared_at DATETIME;
                CREATE INDEX photo_by_shared ON photo(shared_at) WHERE shared_at IS NOT NULL;
                CREATE INDEX list_by_shared ON list(shared_at) WHERE shared_at IS NOT NULL;
                """)
    }
}

extension AppDatabase {
    /// The house reading challenge (issue 25): at most one per year.
    static func migrateToHouseChallenge(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE house_challenge (
                    year INTEGER PRIMARY KEY,
                    measure TEXT NOT NULL CHECK (measure IN ('books', 'pages')),
                    goal INTEGER NOT NULL CHECK (goal > 0),
                    set_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
                    updated_at DATETIME NOT NULL
                );
                """)
    }
}

extension AppDatabase {
    /// The home page's "recently finished" reads the latest finish dates of one person's Read shelf in order.
    static func migrateToRecentlyFinishedIndex(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX user_book_recently_finished ON user_book(user_id, shelf, finished_at, id)
                    WHERE finished_at IS NOT NULL;
                """)
    }
}

extension AppDatabase {
    /// Scheduled backups (issue 26): how each run went, for the admin's settings page.
    static func migrateToBackupRuns(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE backup_run (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    started_at DATETIME NOT NULL,
                    finished_at DATETIME NOT NULL,
                    file TEXT,
                    bytes INTEGER,
                    error TEXT
                );
                """)
    }
}

extension AppDatabase {
    /// Joining by invitation only (issue 35): how each account came in — the first account, an invitation (and from
    /// whom), the open sign-up page, or `shelfed user add` — and the household's own settings, the first of them
    /// whether the admin has opened sign-up. Accounts made before this are filled in where the rows say how.
    static func migrateToJoining(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user ADD COLUMN joined_via TEXT
                    CHECK (joined_via IN ('first', 'invitation', 'sign_up', 'command'));
                ALTER TABLE user ADD COLUMN invited_by INTEGER REFERENCES user(id) ON DELETE SET NULL;
                UPDATE user SET joined_via = 'first' WHERE id = (SELECT MIN(id) FROM user);
                UPDATE user SET joined_via = 'invitation',
                    invited_by = (SELECT created_by FROM invitation WHERE used_by = user.id)
                    WHERE id IN (SELECT used_by FROM invitation WHERE used_by IS NOT NULL);
                CREATE TABLE household_setting (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL,
                    changed_at DATETIME NOT NULL
                );
                """)
    }
}
