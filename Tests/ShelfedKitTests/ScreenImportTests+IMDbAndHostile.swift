import Foundation
import GRDB
import Testing
import ZIPFoundation

@testable import ShelfedKit

/// IMDb's ratings and watchlist (old and new formats, Windows-1252, localised title types), and hostile exports.
extension ScreenImportTests {
    /// The old format: no `Original Title`, lower-camel types, a trailing slash, Windows-1252 bytes in a director.
    static var oldIMDbRatings: Data {
        let header =
            "Const,Your Rating,Date Rated,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,"
            + "Release Date,Directors\n"
        let birdman =
            "tt2562232,7,2015-03-01,Birdman,https://www.imdb.com/title/tt2562232/,movie,7.7,119,2014,"
            + "\"Comedy, Drama\",650000,2014-10-17,Alejandro G. I"
        let rest =
            "arritu\ntt0903747,10,2016-01-01,Breaking Bad,https://www.imdb.com/title/tt0903747/,tvSeries,9.5,49,2008,"
            + "\"Crime, Drama\",2000000,2008-01-20,\n"
            + "tt0959621,9,2016-01-02,Pilot,https://www.imdb.com/title/tt0959621/,tvEpisode,9.0,58,2008,"
            + "Drama,30000,2008-01-20,Vince Gilligan\n"
        var data = Data((header + birdman).utf8)
        data.append(0xF1)  // "ñ" in Windows-1252: not UTF-8.
        data.append(contentsOf: Data(rest.utf8))
        return data
    }

    /// The new format in Italian: every text quoted, `Original Title`, "Film", "Serie TV", "Episodio TV".
    static let italianIMDbRatings = """
        Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,\
        Num Votes,Release Date,Directors
        tt14961016,9,2025-03-15,"Io sono ancora qui","Ainda Estou Aqui",https://www.imdb.com/title/tt14961016,\
        "Film",8.2,137,2024,"Drammatico",60000,"2024-11-07","Walter Salles"
        tt2085059,8,2025-03-14,"Black Mirror","Black Mirror",https://www.imdb.com/title/tt2085059,"Serie TV",8.7,60,\
        2011,"Drammatico, Fantascienza",700000,"2011-12-04",""
        tt0000001,5,2025-03-13,"Un episodio","Un episodio",https://www.imdb.com/title/tt0000001,"Episodio TV",7.0,\
        30,2020,"Commedia",100,"2020-01-01",""
        tt0000002,5,2025-03-12,"Un gioco","Un gioco",https://www.imdb.com/title/tt0000002,"Videogioco",7.0,,\
        2020,"Azione",100,"2020-01-01",""

        """

    @Test func imdbRatingsOfEitherFormatAndEncodingBecomeWatchedTitlesInHalfStars() async throws {
        let me = try await user("ada")
        let old = directory.appendingPathComponent("ratings-2021.csv")
        try Self.oldIMDbRatings.write(to: old)
        let first = try await importFile(old, named: "ratings.csv", for: me)
        #expect(first.format == .imdbRatings && first.created == 2 && first.skipped == 1)
        let italian = try await importFile(try file("ratings.csv", Self.italianIMDbRatings), named: "r.csv", for: me)
        #expect(italian.created == 2 && italian.skipped == 2)
        let titles = try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT book.title, book.kind, book.original_title, book.authors, book.runtime_minutes,
                        user_book.rating, user_book.shelf, json_extract(book.external_ids, '$.imdb') AS imdb,
                        book.categories
                    FROM user_book JOIN book ON book.id = user_book.book_id ORDER BY book.title
                    """
            ).map { row in
                Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0].map { "\($0)" } ?? "-") })
            }
        }
        #expect(titles.map { $0["title"] } == ["Birdman", "Black Mirror", "Breaking Bad", "Io sono ancora qui"])
        let birdman = titles[0]
        #expect(birdman["authors"] == #"["Alejandro G. Iñarritu"]"#)
        #expect(birdman["rating"] == "3.5" && birdman["runtime_minutes"] == "119")
        #expect(birdman["imdb"] == "tt2562232" && birdman["shelf"] == "read")
        #expect(titles[1]["kind"] == "show" && titles[2]["kind"] == "show")
        #expect(titles[2]["rating"] == "5.0")
        #expect(titles[3]["original_title"] == "Ainda Estou Aqui" && titles[3]["rating"] == "4.5")
        // Genres in IMDb's English words, as an English account's export and TMDB's give them.
        #expect(titles[1]["categories"] == #"["Drama","Sci-Fi"]"#, "\(titles[1])")
        #expect(titles[3]["categories"] == #"["Drama"]"#)

        // The same film from Letterboxd under its original title and year is the film already there.
        try await importFile(
            try file(
                "watched.csv", "Date,Name,Year,Letterboxd URI\n2025-01-01,Ainda Estou Aqui,2024,https://boxd.it/abcd\n"),
            named: "watched.csv", for: me)
        let count = try await db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book") ?? 0 }
        #expect(count == 4)
        let book = try await db.read { db in try Book.filter(Column("title") == "Io sono ancora qui").fetchOne(db) }
        #expect(book?.originalTitle == "Ainda Estou Aqui")
    }

    @Test func theIMDbWatchlistIsWantToWatch() async throws {
        let me = try await user("ada")
        let watchlist = """
            Position,Const,Created,Modified,Description,Title,Original Title,URL,Title Type,IMDb Rating,\
            Runtime (mins),Year,Genres,Num Votes,Release Date,Directors,Your Rating,Date Rated
            1,tt0078748,2024-05-01,2024-05-01,,Alien,Alien,https://www.imdb.com/title/tt0078748/,Movie,8.5,117,1979,\
            "Horror, Sci-Fi",900000,1979-05-25,Ridley Scott,,

            """
        let job = try await importFile(try file("watchlist.csv", watchlist), named: "WATCHLIST.csv", for: me)
        #expect(job.format == .imdbWatchlist && job.created == 1)
        let shelf = try await db.read { db in try String.fetchOne(db, sql: "SELECT shelf FROM user_book") }
        #expect(shelf == "want_to_read")
    }

    // MARK: - Hostile files

    @Test func aZIPBombIsRefusedAndLeavesNothingBehind() async throws {
        let me = try await user("ada")
        let huge = Data(repeating: UInt8(ascii: "a"), count: Int(ImportArchive.entryLimit) + 1)
        let url = directory.appendingPathComponent("bomb.zip")
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(
            with: "diary.csv", type: .file, uncompressedSize: Int64(huge.count), compressionMethod: .deflate,
            provider: { position, size in huge.subdata(in: Int(position)..<Int(position) + size) })
        await #expect(throws: ImportStore.StageError.archive(.tooLarge("diary.csv"))) {
            try await store.stage(upload: url, fileName: "bomb.zip", userID: me, now: clock.now)
        }
        #expect(try await store.jobs(of: me).isEmpty)
        let left = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aZIPWithoutAnExportOrWithEscapingPathsIsRefused() async throws {
        let me = try await user("ada")
        let escaping = try zip([
            ("../watched.csv", "Date,Name,Year,Letterboxd URI\n2020-01-01,Alien,1979,https://boxd.it/2b0k\n"),
            ("profile.csv", "Date Joined,Username\n2019-01-01,ada\n"),
        ])
        await #expect(throws: ImportStore.StageError.archive(.notAnExport)) {
            try await store.stage(upload: escaping, fileName: "x.zip", userID: me, now: clock.now)
        }
        let damaged = directory.appendingPathComponent("damaged.zip")
        try Data([0x50, 0x4B, 0x03, 0x04, 0, 1, 2, 3]).write(to: damaged)
        await #expect(throws: ImportStore.StageError.archive(.damaged)) {
            try await store.stage(upload: damaged, fileName: "d.zip", userID: me, now: clock.now)
        }
        #expect(try await store.jobs(of: me).isEmpty)
    }

    @Test func aLetterboxdFileWithItsHeaderOnlyIsAClearMessage() async throws {
        let me = try await user("ada")
        let empty = try file("diary.csv", "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\r\n")
        await #expect(throws: ImportStore.StageError.noRows) {
            try await store.stage(upload: empty, fileName: "diary.csv", userID: me, now: clock.now)
        }
        #expect(ImportStore.StageError.noRows.advice.contains("no rows"))
        #expect(try await store.jobs(of: me).isEmpty)
    }

    @Test func cellsOutsideTheirBoundsAreProblemsOrNotes() async throws {
        var notes: [String] = []
        #expect(ScreenImportValues.halfStars("4.5", notes: &notes) == 4.5)
        #expect(ScreenImportValues.halfStars("0.5", notes: &notes) == 0.5)
        #expect(notes.isEmpty)
        #expect(ScreenImportValues.halfStars("4.25", notes: &notes) == nil)
        #expect(ScreenImportValues.halfStars("1e308", notes: &notes) == nil)
        #expect(ScreenImportValues.tenPoint("11", notes: &notes) == nil)
        #expect(ScreenImportValues.tenPoint("1", notes: &notes) == 0.5)
        #expect(notes.count == 3)
        guard case .failure(let problem) = ScreenImportValues.year("99999") else {
            Issue.record("a year of 99999 was read as a year")
            return
        }
        #expect(problem.message.hasPrefix("The year 99999 is not a year."))
        #expect(ScreenImportValues.year("") == .success(nil))
        #expect(ScreenImportValues.letterboxdURI("javascript:alert(1)") == nil)
        #expect(ScreenImportValues.letterboxdURI("https://boxd.it/\"><script>") == nil)
        #expect(ScreenImportValues.imdbType("Mini serie TV") == .title(.show))
        #expect(ScreenImportValues.imdbType("tvMiniSeries") == .title(.show))
        #expect(ScreenImportValues.imdbType("Episodio TV") == .episode)
        for (word, english) in [
            ("Drammatico", "Drama"), ("Komödie", "Comedy"), ("Ciencia ficción", "Sci-Fi"), ("Policier", "Crime"),
            ("Ficção científica", "Sci-Fi"), ("sci-fi", "Sci-Fi"), ("Per famiglie", "Family"), ("Wuxia", "Wuxia"),
        ] {
            #expect(ScreenImportValues.imdbGenre(word) == english, "\(word)")
        }
        #expect(ScreenImportValues.imdbType("Short") == .title(.movie))
        #expect(ScreenImportValues.imdbType("Película") == .title(.movie))
        #expect(ScreenImportValues.imdbType("Fernsehserie") == .title(.show))
        #expect(ScreenImportValues.imdbType("Video Game") == .other)
    }
}
