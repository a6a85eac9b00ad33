import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Issue 35: who may join the household, what the admin may take, and the admin role never lost in a race.
@Suite struct TrustRoundThreeTests {
    @Test func joiningIsByInvitationUnlessTheAdminOpensSignUpAndEveryMemberSaysHowTheyJoined() async throws {
        // setup: a server configured from an empty environment, as `make run` and the service start it
        #expect(try AppConfig.fromEnvironment([:]).registration == .closed)
        let app = TestApp(registration: try AppConfig.fromEnvironment([:]).registration)
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("alice")  // the first account may always register, and is the admin

            // act: a stranger on the Wi-Fi tries to sign up
            let stranger = WebSession(client)
            #expect(try await stranger.get("/register").text.contains("joining is by invitation"))
            let refused = try await stranger.register("mallory")
            // validate: refused, nothing made, and the sign-in page offers no sign-up link
            #expect(refused.status == .forbidden)
            #expect(try await stranger.get("/").status == .seeOther)
            #expect(!(try await stranger.get("/login").text.contains(#"href="/register""#)))

            // The admin is told and has a switch; a member has neither.
            let page = try await admin.get("/household")
            #expect(page.text.contains("Only people you invite can join"))
            #expect(page.text.contains(#"action="/household/sign-up""#))

            // Opened with a plain warning: a stranger can now join, and is listed as such.
            let opened = try await admin.post("/household/sign-up", ["open": "1"])
            #expect(opened.headers[.location] == "/household?saved=sign-up-open")
            #expect(try await admin.get("/household").text.contains("Sign-up is open."))
            #expect(try await stranger.register("bob").status == .seeOther)
            #expect(try await stranger.post("/household/sign-up", ["open": "0"]).status == .notFound)

            // An invitation still works, and names who sent it.
            let made = try await admin.post("/household/invitations", ["note": "Sam", "days": "7"])
            let marker = try #require(made.text.range(of: "/join/")).upperBound
            let token = String(made.text[marker...].prefix(64))
            #expect(try await WebSession(client).post("/join/\(token)", Self.fields("sam")).status == .seeOther)

            // Closed again: the next stranger is refused.
            _ = try await admin.post("/household/sign-up", ["open": "0"])
            #expect(try await WebSession(client).register("eve").status == .forbidden)

            let members = try await admin.get("/household").text
            #expect(members.contains("as the first account"))
            #expect(members.contains("on the open sign-up page, without an invitation"))
            #expect(members.contains("by invitation from Alice"))
            let count = try await app.database().read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user") }
            #expect(count == 3)
        }
    }

    @Test func theServersSettingOpensSignUpAndTheAdminPageSaysSo() async throws {
        let app = TestApp(registration: try AppConfig.fromEnvironment(["SHELFED_REGISTRATION": "open"]).registration)
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            #expect(try await WebSession(client).register("bob").status == .seeOther)
            let page = try await admin.get("/household").text
            #expect(page.contains("Sign-up is open.") && page.contains("SHELFED_REGISTRATION=open"))
        }
    }

    @Test func theAdminCannotDownloadAMembersDataAndTheRemovalPageSaysWhy() async throws {
        let app = TestApp()
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await bob.addBook(["title": "Bob's private diary"])
            let bobID: Int64 = 2

            // act: the admin tries the old download address, and opens the removal page
            let download = try await admin.get("/household/members/\(bobID)/data")
            let removal = try await admin.get("/household/members/\(bobID)/remove")

            // validate: no download of someone else's data, ever; the page points to the member's own
            #expect(download.status == .notFound)
            #expect(!download.text.contains("private diary"))
            #expect(removal.status == .ok)
            #expect(!removal.text.contains("/data\""))
            #expect(removal.text.contains("Download my data"))
            #expect(removal.text.contains(#"action="/household/members/2/password-link""#))
            // The member's own download still works.
            let own = try await bob.get("/profile/my-data")
            #expect(own.status == .ok && own.headers[.contentType] == "application/zip")
        }
    }

    @Test func handingTheAdminRoleToAMemberWhoIsDeletingTheirAccountNeverLeavesTheHouseWithoutAnAdmin() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("admin-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path)
        let users = UserStore(db: db)
        let household = HouseholdStore(db: db)
        let admin = try await users.create(
            username: "admin", email: "admin@example.com", displayName: "Admin", passwordHash: "x", at: Date()
        ).id!
        // act: twenty times, the admin hands the role to a new member at the moment that member deletes themself
        for attempt in 0..<20 {
            let member = try await users.create(
                username: "m\(attempt)", email: "m\(attempt)@example.com", displayName: "M", passwordHash: "x",
                at: Date()
            ).id!
            let current = try #require(
                try await db.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE role = 'admin'") })
            let from = current == member ? admin : current
            async let handed = household.handAdmin(from: from, to: member)
            async let deleted: Bool = {
                do {
                    try await users.delete(id: member)
                    return true
                } catch is UserStore.AdminMustHandOver { return false }
            }()
            let (wasHanded, wasDeleted) = try await (handed, deleted)
            // validate: never both, and the house always has exactly one admin
            #expect(!(wasHanded && wasDeleted), "attempt \(attempt)")
            let admins = try await db.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE role = 'admin'")
            }
            #expect(admins == 1, "attempt \(attempt)")
        }
    }

    @Test func aBackupFolderInsideAFolderTheServerServesOrBacksUpIsRefusedAtStart() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("backup-place-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent("covers"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        for inside in ["covers/backups", "covers", "media/b", "backups/../covers/x"] {
            let setting = data.path + "/" + inside
            #expect(throws: AppConfig.InvalidSetting.self, "\(inside)") {
                try AppConfig.fromEnvironment(["SHELFED_DATA_DIR": data.path, "SHELFED_BACKUP_DIR": setting])
            }
        }
        // A link to the covers folder is the covers folder.
        let link = data.appendingPathComponent("sneaky")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: data.appendingPathComponent("covers"))
        #expect(throws: AppConfig.InvalidSetting.self) {
            try AppConfig.fromEnvironment(["SHELFED_DATA_DIR": data.path, "SHELFED_BACKUP_DIR": link.path + "/b"])
        }
        for fine in ["backups", "covers-old/backups", "../elsewhere"] {
            let config = try AppConfig.fromEnvironment([
                "SHELFED_DATA_DIR": data.path, "SHELFED_BACKUP_DIR": data.path + "/" + fine,
            ])
            #expect(config.backupPlaceProblem(config.backupFolder) == nil, "\(fine)")
        }
        #expect(
            try AppConfig.fromEnvironment(["SHELFED_DATA_DIR": data.path]).backupFolder.lastPathComponent == "backups")
    }

    @Test func theFiveHundredAndFirstOpenLoanThroughTheAPIIsAnsweredWithTheLoan() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.addBook(["title": "Lent long ago"])
            // 500 copies lent out years ago, written straight in: they sort before today's loan.
            try await app.database().write { db in
                for number in 0..<500 {
                    try db.execute(
                        sql: """
                            INSERT INTO book (title, authors, source, owner_user_id, created_at, updated_at)
                            VALUES (?, '[]', 'manual', 1, '2020-01-01 00:00:00.000', '2020-01-01 00:00:00.000')
                            """, arguments: ["Lent long ago \(number)"])
                    let book = db.lastInsertedRowID
                    try db.execute(
                        sql: """
                            INSERT INTO user_book (user_id, book_id, shelf, owned, added_at, updated_at)
                            VALUES (1, ?, 'read', 1, '2020-01-01 00:00:00.000', '2020-01-01 00:00:00.000')
                            """, arguments: [book])
                    try db.execute(
                        sql: """
                            INSERT INTO loan (user_book_id, borrower_name, lent_on)
                            VALUES (?, 'Someone', '2020-01-01')
                            """, arguments: [db.lastInsertedRowID])
                }
            }
            let book = try await alice.addBook(["title": "Lent today"])
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            // act
            let lent = try await api.send(.post, "/api/v1/household/loans", json: ["book_id": book, "name": "Sam"])
            // validate: 201 with this loan, not a 500 for a loan that was stored
            #expect(lent.status == .created)
            #expect(lent.json?["book_id"] as? Int == Int(book) && lent.json?["borrower"] as? String == "Sam")
        }
    }

    @Test func answeringABorrowRequestWithLendKeepsTheLendFormsRules() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let dune = try await alice.addBook(["title": "Dune"])
            _ = try await alice.post("/books/\(dune)/copy", ["owned": "1"])
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            _ = try await bob.post("/profile/sharing", ["shares": "1"])
            let entry = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM user_book WHERE user_id = 1")
                })
            func requestID() async throws -> Int64 {
                _ = try await bob.post("/house/copies/\(entry)/ask")
                return try #require(
                    try await app.database().read { db in
                        try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM borrow_request WHERE answer IS NULL")
                    })
            }
            func loans() async throws -> Int {
                try await app.database().read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM loan") ?? -1 }
            }

            // act: the copy is no longer owned when the answer comes
            let first = try await requestID()
            _ = try await alice.post("/books/\(dune)/copy", ["location": ""])
            let notOwned = try await alice.post("/house/requests/\(first)", ["answer": "lend"])
            // validate: refused with what to do, and nothing lent
            #expect(notOwned.status == .conflict && notOwned.text.contains("no longer marked as one you own"))
            #expect(try await loans() == 0)

            // The borrower stopped sharing: refused as the lend form refuses them.
            _ = try await alice.post("/books/\(dune)/copy", ["owned": "1"])
            _ = try await bob.post("/profile/sharing", ["shares": "0"])
            let stopped = try await alice.post("/house/requests/\(first)", ["answer": "lend"])
            #expect(stopped.status == .conflict && stopped.text.contains("no longer share"))
            #expect(try await loans() == 0)

            // Both in order: lent.
            _ = try await bob.post("/profile/sharing", ["shares": "1"])
            #expect(try await alice.post("/house/requests/\(first)", ["answer": "lend"]).status == .seeOther)
            #expect(try await loans() == 1)
        }
    }

    @Test func displayNamesAndEmailsWithControlCharactersAreRefusedWithTheTextKept() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            for name in ["Al\u{1B}[31mice", "Bob\u{0}by", "Eve\u{202E}gnp.exe", "Tab\tbed"] {
                let answer = try await web.post(
                    "/register",
                    [
                        "username": "alice", "display_name": name, "email": "alice@example.com",
                        "password": "correct horse",
                    ])
                #expect(answer.status == .unprocessableContent, "\(name.debugDescription)")
                #expect(answer.text.contains("no control characters"), "\(name.debugDescription)")
                #expect(answer.text.contains(#"value="alice@example.com""#))
            }
            let escaped = try await web.post(
                "/register",
                [
                    "username": "alice", "display_name": "Alice", "email": "ali\u{1B}ce@example.com",
                    "password": "correct horse",
                ])
            #expect(escaped.status == .unprocessableContent)
            #expect(try await web.register("alice").status == .seeOther)
            let edited = try await web.post(
                "/profile/edit", ["display_name": "A\u{7}lice", "email": "alice@example.com"])
            #expect(edited.status == .unprocessableContent && edited.text.contains("no control characters"))
            let stored = try await app.database().read { db in
                try String.fetchAll(db, sql: "SELECT display_name FROM user")
            }
            #expect(stored == ["Alice"])
        }
    }

    @Test(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
    func questionsByMeaningAreBudgetedPerPersonOnThePagesAndWhateverTheKey() async throws {
        let app = MeaningSearchTests.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.addBook(["title": "Dune", "description": "A desert planet and its prophet."])
            // A question asked again (a reload) costs nothing: it is answered from the recent questions.
            for _ in 0..<5 { _ = try await alice.get("/library/search?q=desert+prophet") }
            // act: one more new question by meaning than the minute allows, on the library search page
            var lines: [Bool] = []
            for count in 1...MeaningSearch.questionsPerMinute {
                let question = Array(repeating: "desert", count: count).joined(separator: "+")
                let page = try await alice.get("/library/search?q=\(question)").text
                lines.append(page.contains("Matched by words only for now"))
            }
            // validate: the last is answered by words, saying why and when meaning is back; the page still works
            #expect(lines.dropLast().allSatisfy { !$0 } && lines.last == true)
            #expect(try await alice.get("/library/search?q=desert+prophet").text.contains("Dune"))
            #expect(try await alice.get("/quotes?q=a+storm+at+sea").status == .ok)
            app.clock.advance(by: 61)
            #expect(!(try await alice.get("/library/search?q=desert+prophet").text.contains("Matched by words only")))

            // The API's budget is the person's, not the key's: signing in again does not refill it.
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            for _ in 0..<10 { _ = try await api.get("/v1/search/similar?isbn=9780140446043") }
            #expect(try await api.get("/v1/search/similar?isbn=9780140446043").status == .tooManyRequests)
            var again = APIClient(client)
            try await again.signIn("alice@example.com", deviceName: "a fresh key")
            #expect(try await again.get("/v1/search/similar?isbn=9780140446043").status == .tooManyRequests)
        }
    }

    /// A full disk, for real: a 64 KB tmpfs as the backup folder (mounting needs root, as the tests run in CI).
    @Test(.enabled(if: getuid() == 0, "mounting a 64 KB tmpfs as the full disk needs root"))
    func aFullBackupDiskAtUpgradeSaysSoAndChangesNothing() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("full-upgrade-\(UUID().uuidString)")
        let tiny = root.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: tiny, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try #require(
            try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny.path]), "mount refused")
        defer { _ = try? Self.run("/bin/umount", [tiny.path]) }
        // setup: a database one change behind, larger than the disk
        let path = root.appendingPathComponent("shelfed.sqlite").path
        let older = try DatabasePool(path: path)
        let previous = try #require(AppDatabase.migrator.migrations.dropLast().last)
        try AppDatabase.migrator.migrate(older, upTo: previous)
        try older.write { db in
            try db.execute(
                sql: "CREATE TABLE filler (data BLOB); INSERT INTO filler VALUES (zeroblob(300000))")
        }
        try older.close()
        // act
        #expect {
            try AppDatabase(path: path, backupFolder: tiny)
        } throws: { error in
            // validate: named as a full disk with what to do, not "SQLite error 13: not an error"
            let text = String(describing: error)
            return error is AppDatabase.CopyBeforeUpgradeFailed && text.contains("the disk is full")
                && text.contains(tiny.path) && text.contains("SHELFED_BACKUP_DIR") && !text.contains("not an error")
        }
        // Nothing migrated, nothing half-written left.
        let applied = try DatabaseQueue(path: path).read { db in try AppDatabase.migrator.appliedIdentifiers(db) }
        #expect(applied.contains(previous) && !applied.contains(AppDatabase.migrator.migrations.last!))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tiny.path).isEmpty)
    }

    @Test func theDoctorCallsAnEmptyDatabaseFileAProblem() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let config = AppConfig(dataDirectory: data)
        // act: a 0-byte file where the database should be
        FileManager.default.createFile(atPath: config.databasePath, contents: Data())
        let check = Doctor(config: config).database()
        // validate
        #expect(check.status == .problem)
        #expect(check.detail.contains("is empty") && check.fix?.contains("shelfed restore") == true)
        #expect(Doctor.exitCode([check]) != 0)
    }

    @Test func finishingABookOnReadingWithoutAStartDateFinishesItToday() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Imported while reading", "shelf": "reading"])
            // As a Goodreads import leaves Currently reading: no start date.
            try await app.database().write { db in
                try db.execute(sql: "UPDATE user_book SET started_at = NULL WHERE book_id = ?", arguments: [book])
            }
            // act: "Finished it" from the home page
            let finished = try await alice.post("/books/\(book)/shelf", ["shelf": "read", "return_to": "/"])
            // validate: finished today, counted this year, and nothing asks when it was read
            #expect(finished.status == .seeOther)
            #expect(finished.headers[.location]?.contains("ask=finished") == false)
            let day = try await app.database().read { db in
                try String.fetchOne(db, sql: "SELECT finished_at FROM user_book WHERE book_id = ?", arguments: [book])
            }
            #expect(day == "2026-03-15")
        }
    }

    @Test func aFreshServerOpensOnCreateTheFirstAccountAndTheForgotPageFitsAnInstalledServer() async throws {
        try await TestApp().run { client in
            let visitor = WebSession(client)
            // act: the very first visit
            let first = try await visitor.get("/login")
            // validate: nobody to sign in yet, so straight to creating the first account
            #expect(first.status == .seeOther && first.headers[.location] == "/register")
            try await visitor.register("alice")
            #expect(try await WebSession(client).get("/login").status == .ok)

            let help = try await WebSession(client).get("/login/forgot").text
            #expect(help.contains("New password link"))
            #expect(help.contains("/etc/shelfed/shelfed.env") && help.contains("SHELFED_DATA_DIR=/var/lib/shelfed"))
        }
    }

    @Test func theAdminBacksUpNowAndSeesTheServersChecksAsAPage() async throws {
        var setup = TestApp()
        setup.config.backups.every = .off
        let app = setup
        try await app.run(live: true) { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            let member = WebSession(client)
            try await member.register("bob")
            // The backups share the library's disk here: the page says what that risks.
            let settings = try await admin.get("/profile/edit").text
            #expect(settings.contains("Back up now") && settings.contains("on the same disk as the library"))
            #expect(settings.contains(#"href="/household/checks""#))
            #expect(try await member.post("/profile/backup/now").status == .notFound)
            #expect(try await member.get("/household/checks").status == .notFound)

            // act: with no schedule at all, the admin asks for one now
            let asked = try await admin.post("/profile/backup/now")
            #expect(asked.headers[.location] == "/profile/edit?saved=backup-started#backups-heading")
            // validate: written and verified in the background (bounded: thirty seconds on a loaded machine)
            var page = ""
            for _ in 0..<60 {
                page = try await admin.get("/profile/edit").text
                if page.contains("verified") { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(page.contains("verified"))
            let zips = try FileManager.default.contentsOfDirectory(atPath: app.config.backupFolder.path)
                .filter { $0.hasSuffix(".zip") }
            #expect(zips.count == 1)

            let checks = try await admin.get("/household/checks")
            #expect(checks.status == .ok)
            #expect(checks.text.contains("Database") && checks.text.contains("Backups"))
            #expect(checks.text.contains("Scheduled backups are off") && checks.text.contains("What to do"))
        }
    }

    @Test func invitationLinksUseTheHousesAddressNotTheAdminsBrowser() async throws {
        // A bad address is refused at start, naming the setting.
        for bad in ["pi.local:8080", "http://", "http://pi.local/\"><script>", "ftp://pi.local"] {
            #expect(throws: AppConfig.InvalidSetting.self, "\(bad)") {
                try AppConfig.fromEnvironment(["SHELFED_PUBLIC_URL": bad])
            }
        }
        #expect(
            try AppConfig.fromEnvironment(["SHELFED_PUBLIC_URL": "https://books.example.org/"]).publicURL
                == "https://books.example.org")
        var setup = TestApp(registration: .closed)
        setup.config.publicURL = "http://pi.local:8080"
        let app = setup
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            // act: the admin makes a link from a browser on the server itself
            let made = try await admin.post("/household/invitations", ["note": "Sam", "days": "7"])
            // validate: the link carries the house's address, with a button to copy it
            #expect(made.text.contains(#"value="http://pi.local:8080/join/"#))
            #expect(made.text.contains("data-copy=\"new-link\"") && made.text.contains("/static/js/copy-link.js"))
            #expect(!made.text.contains("listens on this computer only"))
        }
        // Listening on this computer only (the tests' 127.0.0.1) and no address set: the page says the link is local.
        try await TestApp(registration: .closed).run { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            let made = try await admin.post("/household/invitations", ["days": "7"])
            #expect(made.text.contains("listens on this computer only"))
        }
    }

    @Test func theJoinPageNamesWhoInvitedYouAndAsksForNoEmail() async throws {
        try await TestApp(registration: .closed).run { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            let made = try await admin.post("/household/invitations", ["note": "Sam", "days": "7"])
            let marker = try #require(made.text.range(of: "/join/")).upperBound
            let token = String(made.text[marker...].prefix(64))
            let sam = WebSession(client)
            // act
            let page = try await sam.get("/join/\(token)").text
            // validate: who sent it, and an e-mail field that is optional
            #expect(page.contains("<strong>Alice</strong> invited you"))
            #expect(page.contains("Email <span class=\"muted\">(optional)</span>"))
            #expect(!page.contains(#"autocomplete="email" required"#))
            let joined = try await sam.post(
                "/join/\(token)", ["username": "sam", "display_name": "Sam", "email": "", "password": "correct horse"])
            #expect(joined.status == .seeOther)
            // No address is shown back, and the username signs in.
            #expect(try await sam.get("/profile/edit").text.contains(#"id="email" name="email" type="email" value="""#))
            let again = WebSession(client)
            #expect(try await again.login("sam").headers[.location] == "/")
            // The stand-in domain cannot be typed as one's own address.
            let typed = try await sam.post(
                "/profile/edit", ["display_name": "Sam", "email": "alice@no-email.invalid"])
            #expect(typed.status == .unprocessableContent)
        }
    }

    @Test func askingToBorrowSaysWhenAndTheBorrowerIsToldTheyHoldIt() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let dune = try await alice.addBook(["title": "Dune", "isbn": "9780441013593"])
            _ = try await alice.post("/books/\(dune)/copy", ["owned": "1"])
            for member in [alice, bob] { _ = try await member.post("/profile/sharing", ["shares": "1"]) }
            let bobsDune = try await bob.addBook(["title": "Dune", "isbn": "9780441013593"])
            #expect(try await bob.get("/books/\(bobsDune)").text.contains("Ask to borrow"))
            let entry = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM user_book WHERE user_id = 1")
                })
            // act: Bob asks
            _ = try await bob.post("/house/copies/\(entry)/ask")
            // validate: the button gives way to when he asked
            let asked = try await bob.get("/books/\(bobsDune)").text
            #expect(asked.contains("you asked to borrow it on") && !asked.contains("Ask to borrow"))
            // Lent: Bob holds it, and is told so rather than that it is out on loan.
            let request = try #require(
                try await app.database().read { db in try Int64.fetchOne(db, sql: "SELECT id FROM borrow_request") })
            _ = try await alice.post("/house/requests/\(request)", ["answer": "lend"])
            let holding = try await bob.get("/books/\(bobsDune)").text
            #expect(holding.contains("lent to you") && !holding.contains("out on loan"))
        }
    }

    @Test func theGoodreadsExportCountsEveryReadOfABookReadAgain() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Read Twice", "shelf": "reading"])
            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "read"])
            app.clock.advance(by: 10 * 86_400)
            // act: read again, and finished again ten days later
            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "reading"])
            app.clock.advance(by: 10 * 86_400)
            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "read"])
            let csv = try await alice.get("/export/goodreads").text
            // validate: Read Count says two, as the book page's earlier reads do
            let line = try #require(csv.split(separator: "\r\n").first { $0.contains("Read Twice") })
            let header = try #require(csv.split(separator: "\r\n").first).split(separator: ",")
            let readCount = try #require(header.firstIndex(of: "Read Count"))
            #expect(line.split(separator: ",", omittingEmptySubsequences: false)[readCount] == "2", "\(line)")
        }
    }

    @Test func allTimeStatisticsAgreeWithEachOtherAndReadAsNumbersDo() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Long Book", "page_count": "1234", "shelf": "reading"])
            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "read"])
            app.clock.advance(by: 10 * 86_400)
            // act: reading it again, so it is on Reading with one finished read kept
            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "reading"])
            let page = try await alice.get("/profile").text
            // validate: one book read in one year, not "0 books read" beside "1 years"; thousands separated
            #expect(page.contains("<strong>1</strong> book read"))
            #expect(page.contains("<strong>1</strong> year with a finished book"))
            #expect(page.contains("<strong>1,234</strong> pages read"))
        }
    }

    private static func run(_ command: String, _ arguments: [String]) throws -> Bool {
        Spawn.run(command, arguments) == 0
    }

    private static func fields(_ username: String) -> [String: String] {
        [
            "username": username, "display_name": username.capitalized, "email": "\(username)@example.com",
            "password": "correct horse",
        ]
    }
}
