import Foundation
import GRDB
import Logging
import Testing
import ZIPFoundation

@testable import ShelfedKit

/// Watching histories from Letterboxd (issue 38): each file alone, the ZIP whole, in any order, again — one library.
/// The export is written here by hand with the quirks of the real one (`../shared/fixtures/screen-imports`): titles
/// with commas and quotes, the same title in two years, two films sharing title and year told apart only by their
/// links, an empty year, diary links that are not film links, `Rewatch` with no earlier row, multi-line reviews with
/// HTML, tags.
@Suite struct ScreenImportTests {
    let directory: URL
    let db: AppDatabase
    let store: ImportStore
    let clock = TestClock("2026-11-20T09:00:00Z")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("screen-imports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = try AppDatabase(path: directory.appendingPathComponent("shelfed.sqlite").path)
        store = ImportStore(db: db, directory: directory.appendingPathComponent("imports"))
    }

    static let export: [(path: String, text: String)] = [
        (
            "watched.csv",
            #"""
            Date,Name,Year,Letterboxd URI
            2019-01-05,Alien,1979,https://boxd.it/2b0k
            2019-01-05,Halloween,1978,https://boxd.it/1Yx0
            2019-01-06,Halloween,2018,https://boxd.it/fJ2a
            2019-01-07,"Lock, Stock and Two Smoking Barrels",1998,https://boxd.it/29jI
            2019-01-08,"""Deji"" Meets Girl",2019,https://boxd.it/lMpe
            2019-01-09,Deep-Fried Fingers,,https://boxd.it/v0Gu
            2019-01-10,The Haunted Castle,1897,https://boxd.it/6Pki
            2019-01-10,The Haunted Castle,1897,https://boxd.it/3y76

            """#
        ),
        (
            "diary.csv",
            "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\r\n"
                + "2021-06-02,Alien,1979,https://boxd.it/1VoAHp,4.5,Yes,,2021-06-01\r\n"
                + "2020-01-03,Alien,1979,https://boxd.it/1VoAHq,,,,2020-01-01\r\n"
                + "2019-11-01,Halloween,1978,https://boxd.it/1VoAHr,,Yes,on-netflix,2019-10-31\r\n"
                + "2018-05-06,\"Lock, Stock and Two Smoking Barrels\",1998,https://boxd.it/1VoAHs,,,"
                + "\"on-netflix, short\",2018-05-05\r\n"
                + "2016-02-02,Her Story,2015,https://boxd.it/1VoAHt,,,,2016-02-01\r\n"
                + "2016-02-02,Her Story,2015,https://boxd.it/1VoAHu,,Yes,,2016-02-01\r\n"
        ),
        (
            "ratings.csv",
            #"""
            Date,Name,Year,Letterboxd URI,Rating
            2021-06-02,Alien,1979,https://boxd.it/2b0k,4.5
            2019-11-01,Halloween,1978,https://boxd.it/1Yx0,1.5

            """#
        ),
        (
            "reviews.csv",
            #"""
            Date,Name,Year,Letterboxd URI,Rating,Rewatch,Review,Tags,Watched Date
            2021-06-02,Alien,1979,https://boxd.it/1VoAHp,4.5,Yes,"Still <i>terrifying</i>.

            See <a href=""https://letterboxd.com/film/aliens/"">Aliens</a> next.",,2021-06-01

            """#
        ),
        (
            "watchlist.csv",
            #"""
            Date,Name,Year,Letterboxd URI
            2022-03-01,Nosferatu,1922,https://boxd.it/2aHi
            2022-03-02,Never Hike in the Snow,,https://boxd.it/pQ7c

            """#
        ),
        (
            "likes/films.csv",
            #"""
            Date,Name,Year,Letterboxd URI
            2019-01-06,Halloween,2018,https://boxd.it/fJ2a

            """#
        ),
    ]

    func user(_ name: String) async throws -> Int64 {
        try await UserStore(db: db).create(
            username: name, email: "\(name)@example.com", displayName: name, passwordHash: "x", at: clock.now
        ).id!
    }

    func file(_ name: String, _ text: String) throws -> URL {
        let url = directory.appendingPathComponent(
            UUID().uuidString + "-" + name.replacingOccurrences(of: "/", with: "-"))
        try Data(text.utf8).write(to: url)
        return url
    }

    func zip(_ entries: [(path: String, text: String)]) throws -> URL {
        let url = directory.appendingPathComponent("letterboxd-\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (path, text) in entries {
            let data = Data(text.utf8)
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate,
                provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
        }
        return url
    }

    /// Stages, confirms and runs one upload; the finished job.
    @discardableResult
    func importFile(_ url: URL, named name: String, for userID: Int64) async throws -> ImportJob {
        let staged = try await store.stage(upload: url, fileName: name, userID: userID, now: clock.now)
        #expect(staged.status == .preview)
        _ = try await store.confirm(jobID: staged.id, userID: userID, existing: .update, shelfMapping: [:])
        try await ImportRunner(db: db, logger: Logger(label: "test"), now: { self.clock.now }).runUntilIdle()
        return try #require(try await store.job(id: staged.id, of: userID))
    }

    /// Every title of the user's as one line: title, year, shelf, favourite, rating, review, viewings, lists.
    func library(of userID: Int64) async throws -> [String] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT user_book.id, book.title, book.published_date, user_book.shelf, user_book.favourite,
                        user_book.rating, user_book.review, user_book.finished_at, book.external_ids
                    FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = ?
                    """, arguments: [userID]
            ).map { row in
                let entryID: Int64 = row[0]
                let earlier = try String?.fetchAll(
                    db, sql: "SELECT finished_at FROM read_through WHERE user_book_id = ?", arguments: [entryID])
                let viewings = (earlier + [row[7] as String?]).map { $0 ?? "undated" }.sorted()
                let lists = try String.fetchAll(
                    db,
                    sql: """
                        SELECT list.name FROM list_item JOIN list ON list.id = list_item.list_id
                        WHERE list_item.user_book_id = ? ORDER BY list.name
                        """, arguments: [entryID])
                let link = (row[8] as String).contains("boxd.it") ? "linked" : "unlinked"
                let title: String = row[1]
                let year: String = row[2] ?? "-"
                let shelf: String = row[3]
                let favourite: Bool = row[4]
                let rating: String = (row[5] as Double?).map { "\($0)" } ?? "-"
                let review: String = row[6] ?? "-"
                let cells: [String] = [
                    title, year, shelf, String(favourite), rating, review, viewings.joined(separator: "+"),
                    lists.joined(separator: "+"), link,
                ]
                return cells.joined(separator: " | ")
            }.sorted()
        }
    }

    // MARK: -

    @Test func theZIPAndItsFilesInEitherOrderGiveTheSameLibraryAndAgainChangeNothing() async throws {
        let zipped = try await user("zipped")
        let job = try await importFile(try zip(Self.export), named: "letterboxd-ada-2026.zip", for: zipped)
        #expect(job.format == .letterboxd && job.status == .completed)
        #expect(job.failed == 0)
        // The preview counts films, not rows: 11 films on 20 rows, each on the furthest shelf a row puts it.
        #expect(job.summary?.titles == 11 && job.total == 20)
        #expect(job.summary?.byShelf == [.wantToRead: 2, .read: 9])
        #expect(job.summary?.rated == 2 && job.summary?.reviewed == 1)
        let fromZIP = try await library(of: zipped)

        for (name, order) in [("forwards", Self.export), ("backwards", Self.export.reversed())] {
            let person = try await user(name)
            for (path, text) in order {
                try await importFile(try file(path, text), named: path, for: person)
            }
            #expect(try await library(of: person) == fromZIP, "\(name)")
        }

        let again = try await importFile(try zip(Self.export), named: "letterboxd-ada-2026.zip", for: zipped)
        #expect(again.created == 0 && again.updated == 0)
        #expect(try await library(of: zipped) == fromZIP)
    }

    @Test func eachFileSaysWhatItMeans() async throws {
        let me = try await user("ada")
        try await importFile(try zip(Self.export), named: "export.zip", for: me)
        let lines = try await library(of: me)
        func line(_ prefix: String) -> String { lines.first { $0.hasPrefix(prefix) } ?? "missing \(prefix)" }
        // Two diary rows are two viewings; the latest is the entry's; the rating is kept in half stars exactly.
        #expect(line("Alien | 1979").contains("| read | false | 4.5 |"))
        #expect(line("Alien | 1979").hasSuffix("2020-01-01+2021-06-01 |  | linked"))
        // A review's HTML is text, never markup; its paragraphs stay.
        #expect(line("Alien | 1979").contains("Still terrifying.\nSee Aliens next."))
        // Rewatch with no earlier row: seen before, on a day nobody wrote down.
        #expect(line("Halloween | 1978").contains("| 1.5 |") && line("Halloween | 1978").contains("2019-10-31+undated"))
        #expect(line("Halloween | 2018").contains("| read | true |"))
        #expect(line("Lock, Stock and Two Smoking Barrels | 1998").contains("| 2018-05-05 | on-netflix+short |"))
        #expect(line("\"Deji\" Meets Girl | 2019").contains("| read |"))
        #expect(line("Deep-Fried Fingers | - | read").contains("| undated |"))
        #expect(line("Nosferatu | 1922 | want_to_read").contains("| - | - |"))
        #expect(line("Never Hike in the Snow | - | want_to_read").hasPrefix("Never"))
        // A diary film missing from watched.csv (a game) is still what the diary says; two entries of one day are two
        // viewings (and the second's Rewatch asks for no undated one: the first is that day's).
        #expect(line("Her Story | 2015 | read").contains("| 2016-02-01+2016-02-01 |"))
        #expect(lines.filter { $0.hasPrefix("The Haunted Castle | 1897") }.count == 2)
        #expect(lines.count == 11)
        let kinds = try await db.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT kind FROM book") }
        #expect(kinds == ["movie"])
    }

    /// Letterboxd's lists (`lists/*.csv` in the ZIP): the list is named in the lines above its films; a film on it
    /// joins the list on its own shelf (watched stays watched), one not in the library waits on Want to watch; a file
    /// without the films' table adds nothing; importing again adds no second list or entry.
    @Test func listsInTheZIPBecomeListsAndMoveNoFilmBack() async throws {
        let me = try await user("ada")
        let list = #"""
            Letterboxd list export v7
            Date,Name,Tags,URL,Description
            2021-10-01,"Scary, but good",,https://letterboxd.com/ada/list/scary-but-good/,For October

            Position,Name,Year,URL,Description
            1,Alien,1979,https://boxd.it/2b0k,
            2,The Thing,1982,https://boxd.it/29XI,"A ""perfect"" film"

            """#
        let broken = "Letterboxd list export v7\nDate,Name,Tags,URL,Description\n2021-10-01,Empty,,x,\n"
        let entries = Self.export + [("lists/scary-but-good.csv", list), ("lists/broken.csv", broken)]
        let job = try await importFile(try zip(entries), named: "letterboxd.zip", for: me)
        #expect(job.status == .completed && job.failed == 0)
        let lines = try await library(of: me)
        func line(_ prefix: String) -> String { lines.first { $0.hasPrefix(prefix) } ?? "missing \(prefix)" }
        #expect(line("Alien | 1979 | read").contains("| Scary, but good |"))
        #expect(line("The Thing | 1982 | want_to_read").contains("| Scary, but good |"))
        #expect(lines.count == 12)
        let again = try await importFile(try zip(entries), named: "letterboxd.zip", for: me)
        #expect(again.created == 0 && again.updated == 0)
        let lists = try await db.read { db in try String.fetchAll(db, sql: "SELECT name FROM list ORDER BY name") }
        #expect(lists.filter { $0 == "Scary, but good" }.count == 1 && !lists.contains("Empty"))
    }

    @Test func aViewingOfATitleTwoFilmsShareIsAskedAboutNotGuessed() async throws {
        let me = try await user("ada")
        try await importFile(try file("watched.csv", Self.export[0].text), named: "watched.csv", for: me)
        let diary = try file(
            "diary.csv",
            "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
                + "2020-02-02,The Haunted Castle,1897,https://boxd.it/9zzz,,,,2020-02-01\n")
        let job = try await importFile(diary, named: "diary.csv", for: me)
        #expect(job.failed == 1)
        let row = try #require(try await store.rows(of: job.id, userID: me, outcome: .failed).first)
        #expect(
            row.message?.contains("2 films in your library are called “The Haunted Castle” (1897)") == true,
            "\(row.message ?? "")")
        let viewings = try await db.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book WHERE finished_at IS NOT NULL") ?? -1
        }
        #expect(viewings == 0)
    }

    @Test func aFilmAlreadyOnWantToWatchMovesToWatchedAndAWatchedOneNeverMovesBack() async throws {
        let me = try await user("ada")
        try await importFile(
            try file("watchlist.csv", "Date,Name,Year,Letterboxd URI\n2022-01-01,Alien,1979,https://boxd.it/2b0k\n"),
            named: "watchlist.csv", for: me)
        try await importFile(
            try file(
                "diary.csv",
                "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
                    + "2020-01-03,Alien,1979,https://boxd.it/1VoAHq,,,,2020-01-01\n"), named: "diary.csv", for: me)
        #expect(try await library(of: me) == ["Alien | 1979 | read | false | - | - | 2020-01-01 |  | linked"])
        try await importFile(
            try file("watchlist.csv", "Date,Name,Year,Letterboxd URI\n2022-01-01,Alien,1979,https://boxd.it/2b0k\n"),
            named: "watchlist.csv", for: me)
        #expect(try await library(of: me) == ["Alien | 1979 | read | false | - | - | 2020-01-01 |  | linked"])
    }

    @Test func aBookOfTheSameTitleIsNeverTheFilm() async throws {
        let me = try await user("ada")
        let bookID = try await LibraryStore(db: db).add(
            NewBook(title: "Alien"), to: .read, for: me, now: clock.now, today: "2026-11-20")
        try await importFile(try file("watched.csv", Self.export[0].text), named: "watched.csv", for: me)
        let films = try await db.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE kind = 'movie' AND title = 'Alien'") ?? 0
        }
        #expect(films == 1 && bookID > 0)
    }
}

extension ScreenImportTests {
    @Test func theLetterboxdExportListsEveryViewingAndReadsBackToTheSameFilms() async throws {
        let me = try await user("ada")
        try await importFile(try zip(Self.export), named: "export.zip", for: me)
        let csv = try await LetterboxdExport(db: db).csv(of: me)
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines[0] == LetterboxdExport.header.joined(separator: ","))
        let alien = lines.filter { $0.hasPrefix("https://boxd.it/2b0k,") }
        #expect(
            alien == [
                "https://boxd.it/2b0k,,,Alien,1979,,2020-01-01,4.5,,,",
                "https://boxd.it/2b0k,,,Alien,1979,,2021-06-01,4.5,true,,\"Still terrifying.\nSee Aliens next.\"",
            ])
        #expect(!csv.contains("Nosferatu"), "the watchlist is not a viewing")

        let other = try await user("grace")
        let job = try await importFile(try file("films.csv", csv), named: "shelfed_letterboxd_export.csv", for: other)
        #expect(job.format == .letterboxdCSV && job.failed == 0)
        // Likes have no column in Letterboxd's import, so the heart stays behind; everything else comes back.
        func watched(_ lines: [String]) -> [String] {
            lines.filter { $0.contains("| read |") }.map {
                $0.replacingOccurrences(of: "| read | true |", with: "| read | false |")
            }
        }
        #expect(watched(try await library(of: other)) == watched(try await library(of: me)))
    }
}
