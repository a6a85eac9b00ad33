import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// "Search my library" by meaning: a library of real books (the Google Books answers recorded in
/// `../shared/fixtures/googlebooks`, read in place), embedded in the background, asked questions written for this
/// test that avoid every word of the book they describe.
@Suite(
    .enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)),
    .enabled(if: SharedFixtures.available, SharedFixtures.skipReason))
struct MeaningSearchTests {
    struct RealBook {
        let title: String
        let authors: String
        let description: String
        var categories: [String] = []
    }

    /// Every distinct book with a description in the recorded answers, its description as Shelfed stores it.
    static func realBooks() throws -> [RealBook] {
        let folder = SharedFixtures.url("googlebooks")
        var books: [String: RealBook] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where name.hasSuffix(".json") {
            guard
                let object = try? JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent(name)))
                    as? [String: Any]
            else { continue }
            let items = (object["items"] as? [[String: Any]]) ?? (object["volumeInfo"] != nil ? [object] : [])
            for item in items {
                guard let info = item["volumeInfo"] as? [String: Any], let title = info["title"] as? String,
                    let description = info["description"] as? String, !description.isEmpty, books[title] == nil
                else { continue }
                books[title] = RealBook(
                    title: title, authors: ((info["authors"] as? [String]) ?? []).joined(separator: ", "),
                    description: String(DescriptionText.plain(description).prefix(4000)),
                    categories: (info["categories"] as? [String]) ?? [])
            }
        }
        return books.values.sorted { $0.title < $1.title }
    }

    /// Questions and the book each means, none sharing a word (other than small ones) with that book's title,
    /// authors or description.
    static let questions: [(String, String)] = [
        (
            "a sixteenth-century French nobleman withdraws to his country house and muses about everything",
            "The Complete Essays"
        ),
        ("scholarly study of how typewriters and phonographs transformed poetry", "Discourse Networks 1800/1900"),
        ("a painted lunatic tries to break the mind of the head policeman", "Batman: Killing Joke (DELUXE)"),
        (
            "an acclaimed anthology of thoughtful tales about machines and visitors from beyond our planet",
            "Stories of Your Life and Others"
        ),
        ("a fugitive hiding on a remote isle falls for a lady who never notices him", "The Invention of Morel"),
        (
            "an unsuccessful movie director becomes infatuated with an academic her spouse works alongside",
            "I Love Dick"
        ),
        ("helping kids cope with worry and sadness through a famous fantasy saga", "Harry Potter Power"),
        ("a periodical on how research and engineering will brighten tomorrow", "Popular Science"),
        (
            "companion about the cast and visual trickery of the cinema adaptations",
            "Harry Potter handbook, movie magic"
        ),
    ]
    /// Small words a question may share with its book.
    static let smallWords: Set<String> = [
        "about", "with", "from", "that", "this", "their", "they", "them", "what", "which", "into", "over", "will",
        "through", "never", "who", "how", "and", "the", "for", "her", "his", "him",
    ]

    /// Waits (at most a minute) until every book has its vector.
    static func waitForVectors(_ app: TestApp, count: Int) async throws {
        let database = try app.database()
        for _ in 0..<240 {
            let done = try await database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_embedding WHERE vector IS NOT NULL") ?? 0
            }
            if done >= count { return }
            try await Task.sleep(for: .milliseconds(250))
        }
        Issue.record("the books were not embedded within a minute")
    }

    static func app(search: SearchSettings? = nil) -> TestApp {
        var app = search.map { TestApp(search: $0) } ?? TestApp()
        app.config.modelDirectory = EmbeddingModelFiles.folder
        return app
    }

    /// The titles on a results page, in order.
    static func titles(_ page: String) -> [String] {
        page.components(separatedBy: "<h2 class=\"result-title\"><a href=\"").dropFirst().compactMap { part in
            part.split(separator: ">", maxSplits: 1).last?.components(separatedBy: "</a>").first
        }.map { title in
            [("&#39;", "'"), ("&#x27;", "'"), ("&apos;", "'"), ("&quot;", "\""), ("&amp;", "&")].reduce(title) {
                $0.replacingOccurrences(of: $1.0, with: $1.1)
            }
        }
    }

    @Test func paraphrasedQuestionsFindTheirBookWhereWordsDoNot() async throws {
        let books = try Self.realBooks()
        #expect(books.count >= 15)
        let app = Self.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            for book in books {
                _ = try await alice.addBook(
                    ["title": book.title, "authors": book.authors, "description": book.description])
            }
            try await Self.waitForVectors(app, count: books.count)
            var firsts = 0
            for (question, title) in Self.questions {
                // The question really avoids the book's words: keyword search alone does not find it.
                let text = try #require(books.first { $0.title == title }, "\(title) is not in the fixtures")
                let words = Set(
                    (text.title + " " + text.authors + " " + text.description).lowercased()
                        .split(whereSeparator: { !$0.isLetter }).map(String.init))
                let shared = question.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init).filter {
                    $0.count > 2 && !Self.smallWords.contains($0) && words.contains($0)
                }
                #expect(shared.isEmpty, "\(question) shares \(shared) with \(title)")
                let keywordsOnly = try await TextSearchStore(db: app.database()).library(of: 1, matching: question)
                #expect(!keywordsOnly.contains { $0.title == title })

                let page = try await alice.get(
                    "/library/search?q=\(question.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
                #expect(page.text.contains("Ranked by meaning and words."))
                let found = Self.titles(page.text)
                #expect(found.prefix(3).contains(title), "\(question) → \(found.prefix(3))")
                if found.first == title { firsts += 1 }
            }
            // At least half first, as the issue's bar asks of paraphrased descriptions.
            #expect(firsts * 2 >= Self.questions.count, "first for \(firsts) of \(Self.questions.count)")
        }
    }

    /// A typed title still comes first, and another person's books never appear.
    @Test func titlesStillWinAndOnlyYourOwnBooksAreRanked() async throws {
        let books = try Self.realBooks()
        let app = Self.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            for book in books.prefix(8) {
                _ = try await alice.addBook(
                    ["title": book.title, "authors": book.authors, "description": book.description])
            }
            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await bob.addBook(
                ["title": "Bob's secret diary", "description": "A clown criminal and a police chief, in a castle."])
            try await Self.waitForVectors(app, count: 9)
            let page = try await alice.get("/library/search?q=clown+criminal+police+chief")
            #expect(!page.text.contains("secret diary"))
            let own = try await bob.get("/library/search?q=clown+criminal+police+chief")
            #expect(Self.titles(own.text) == ["Bob's secret diary"])
            let typed = books.prefix(8).last!.title
            let byTitle = try await alice.get(
                "/library/search?q=\(typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(Self.titles(byTitle.text).first == typed)
        }
    }

    /// An edited description is embedded again; a book not embedded yet is still found by its words.
    @Test func changedTextIsEmbeddedAgain() async throws {
        let app = Self.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Plain title", "description": "A cookbook of breads."])
            try await Self.waitForVectors(app, count: 1)
            let database = try app.database()
            let before = try await database.read { db in
                try Data.fetchOne(db, sql: "SELECT vector FROM book_embedding WHERE book_id = ?", arguments: [book])
            }
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE book SET description = 'Sailing alone around the world.' WHERE id = ?",
                    arguments: [book])
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_embedding") == 0)
            }
            let byWords = try await alice.get("/library/search?q=sailing")
            #expect(Self.titles(byWords.text) == ["Plain title"])
            try await Self.waitForVectors(app, count: 1)
            let after = try await database.read { db in
                try Data.fetchOne(db, sql: "SELECT vector FROM book_embedding WHERE book_id = ?", arguments: [book])
            }
            #expect(after != nil && after != before)
            let vector = try #require(MeaningVector.decode(after))
            #expect(abs(MeaningVector.dot(vector, vector) - 1) < 0.01)
        }
    }

    /// "More like this" on a book page: the same author's books first, with reasons; never another person's own
    /// rows; a book not embedded yet says so.
    @Test func moreLikeThisPutsTheSameAuthorFirstAndKeepsOthersRowsOut() async throws {
        let books = try Self.realBooks()
        let app = Self.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let ids = try await Self.add(books, to: alice)
            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await bob.addBook(
                [
                    "title": "Bob's wizard diary", "authors": "J.K. Rowling",
                    "description": "A boy wizard at a school of magic fights a dark lord.",
                ])
            try await Self.waitForVectors(app, count: books.count + 1)
            let stone = try #require(ids["Harry Potter and the Sorcerer's Stone"])
            let page = try await alice.get("/books/\(stone)").text
            let section = try #require(page.components(separatedBy: "More like this</h2>").last)
            let similar = Self.similarTitles(section)
            #expect(similar.count >= 3 && similar.count <= 8, "\(similar)")
            // Rowling's own books (the recordings spell her "J.K." and "J. K.") come before books about them.
            let byRowling = Set(
                books.filter { $0.authors.contains("Rowling") && $0.title != "Harry Potter and the Sorcerer's Stone" }
                    .map(\.title))
            #expect(Set(similar.prefix(byRowling.count)) == byRowling, "\(similar)")
            #expect(section.contains("Also by J.K. Rowling") || section.contains("Also by J. K. Rowling"))
            #expect(!page.contains("Bob&#39;s wizard diary") && !page.contains("wizard diary"))
        }
    }

    /// Adds `books` by hand to `web`'s library; their ids by title.
    static func add(_ books: [RealBook], to web: WebSession) async throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for book in books {
            ids[book.title] = try await web.addBook(
                ["title": book.title, "authors": book.authors, "description": book.description])
        }
        return ids
    }

    /// The titles in the "More like this" list, in order.
    static func similarTitles(_ html: String) -> [String] {
        html.components(separatedBy: "<h3 class=\"result-title\">").dropFirst().compactMap { part in
            let cell = part.components(separatedBy: "</h3>").first ?? ""
            return cell.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
                .replacingOccurrences(of: "&#39;", with: "'")
        }
    }

    /// After an import of 1,000 books the background catches up, and a restart in the middle carries on where it
    /// stopped: every book ends with exactly one vector. (Short texts keep the suite fast; the 5,000-book figures
    /// are in benchmarks/README.md.)
    @Test func embeddingCatchesUpAfterALargeImportAndARestart() async throws {
        let app = Self.app()
        try FileManager.default.createDirectory(at: app.config.dataDirectory, withIntermediateDirectories: true)
        let database = try app.database()
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO user (username, display_name, email, password_hash, created_at)
                    VALUES ('reader', 'Reader', 'reader@example.com', 'x', '2026-01-01 00:00:00.000')
                    """)
            for number in 0..<1_000 {
                try db.execute(
                    sql: """
                        INSERT INTO book (title, authors, source, created_at, updated_at, owner_user_id)
                        VALUES (?, '["An Author"]', 'import', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000', 1)
                        """, arguments: ["Imported book \(number)"])
                // On the reader's shelf, as an import puts it: only books someone has are read for meaning.
                try db.execute(
                    sql: """
                        INSERT INTO user_book (user_id, book_id, shelf, added_at, updated_at)
                        VALUES (1, ?, 'read', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')
                        """, arguments: [db.lastInsertedRowID])
            }
        }
        @Sendable func embedded() async throws -> Int {
            try await database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_embedding WHERE vector IS NOT NULL") ?? 0
            }
        }
        // First run: stopped once some, not all, are embedded.
        try await app.run(live: true, keepingData: true) { _ in
            for _ in 0..<400 where try await embedded() < 50 { try await Task.sleep(for: .milliseconds(50)) }
        }
        let afterStop = try await embedded()
        #expect(afterStop >= 50 && afterStop < 1_000, "\(afterStop) embedded before the stop")
        try await app.run(live: true) { _ in
            for _ in 0..<1_200 where try await embedded() < 1_000 {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try await embedded() == 1_000)
            let rows = try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_embedding")
            }
            #expect(rows == 1_000)
        }
    }
}
