import Foundation
import GRDB
import Logging
import Testing

@testable import ShelfedKit

/// Broad topic questions ("something about learning to play chess") through the served rankings (issue 35, finding
/// 7), on the project's own set: 48 invented books in eight topics, with books that only mention a topic's words in
/// passing (`Tests/Fixtures/embeddings/topic-library.json`). For each question, the share of the first k answers that
/// fit it (k = 5, or fewer when fewer books fit), by plain cosine, by "Search my library" (meaning and words) and by
/// the catalog's hybrid search (`/api/v2/search`). The figures are printed and recorded in benchmarks/README.md; the
/// bar: the served rankings do at least as well as plain cosine.
@Suite(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
struct TopicSearchTests {
    struct Library: Decodable {
        struct Book: Decodable {
            let title: String
            let authors: String
            let categories: [String]
            let description: String
        }
        struct Topic: Decodable {
            let question: String
            let fits: [String]
        }
        let books: [Book]
        let topics: [Topic]
    }

    static func library() throws -> Library {
        let url = TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/embeddings/topic-library.json")
        return try JSONDecoder().decode(Library.self, from: Data(contentsOf: url))
    }

    @Test func servedRankingsFindBooksOnATopicAtLeastAsWellAsPlainCosine() async throws {
        let library = try Self.library()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("topics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path)
        var logger = Logger(label: "topics")
        logger.logLevel = .critical
        let embedder = TextEmbedder(folder: EmbeddingModelFiles.folder, logger: logger)
        var titles: [Int64: String] = [:]
        try await db.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO user (id, username, email, display_name, password_hash, created_at)
                    VALUES (1, 'ada', 'ada@example.com', 'Ada', 'x', '2026-01-01 00:00:00')
                    """)
        }
        for book in library.books {
            let authors = book.authors.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let stored = ShelfedKit.Book(
                id: nil, title: book.title, authors: authors, description: book.description,
                categories: book.categories, source: .manual, createdAt: Date(), updatedAt: Date())
            let vector = try #require(try await embedder.embed([EmbeddingStore.text(of: stored)])?.first)
            let id = try await db.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO book (title, authors, author_names, categories, description, source, created_at,
                            updated_at, owner_user_id)
                        VALUES (?, ?, ?, ?, ?, 'manual', '2026-01-01', '2026-01-01', 1)
                        """,
                    arguments: [
                        book.title, String(data: try JSONEncoder().encode(authors), encoding: .utf8),
                        authors.joined(separator: ", "),
                        String(data: try JSONEncoder().encode(book.categories), encoding: .utf8), book.description,
                    ])
                let id = db.lastInsertedRowID
                try db.execute(
                    sql: """
                        INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at)
                        VALUES (1, ?, 'want_to_read', 0, '2026-01-01', '2026-01-01')
                        """, arguments: [id])
                try db.execute(
                    sql:
                        "INSERT INTO book_embedding (book_id, model, vector, embedded_at) VALUES (?, ?, ?, '2026-01-01')",
                    arguments: [id, TextEmbedder.modelID, MeaningVector.encode(vector)])
                return id
            }
            titles[id] = book.title
        }
        let search = MeaningSearch(
            embeddings: EmbeddingStore(db: db), textSearch: TextSearchStore(db: db), embedder: embedder)
        var fitting = (cosine: 0, library: 0, catalog: 0)
        var asked = 0
        var lines: [String] = []
        for topic in library.topics {
            let fits = Set(topic.fits)
            let k = min(5, fits.count)
            asked += k
            let query = try #require(try await embedder.embed([topic.question])?.first)
            let cosines = try await search.embeddings.libraryCosines(of: 1, to: query, model: TextEmbedder.modelID)
            let plain = cosines.sorted { $0.cosine != $1.cosine ? $0.cosine > $1.cosine : $0.id < $1.id }
                .prefix(k).map { titles[$0.id]! }
            let mine = try await search.library(of: 1, matching: topic.question, limit: k).1.map { titles[$0.id]! }
            let catalog = try #require(
                try await search.catalog(userID: 1, matching: topic.question, hybrid: true, limit: k, offset: 0)
            ).matches.map(\.book.title)
            let counts = [plain, mine, catalog].map { $0.filter(fits.contains).count }
            fitting.cosine += counts[0]
            fitting.library += counts[1]
            fitting.catalog += counts[2]
            lines.append(
                "\(topic.question): cosine \(counts[0])/\(k), library \(counts[1])/\(k), catalog \(counts[2])/\(k)")
        }
        func share(_ count: Int) -> String { String(format: "%.0f%%", 100 * Double(count) / Double(asked)) }
        print(lines.joined(separator: "\n"))
        print(
            "Broad topics, \(library.topics.count) questions, \(asked) places: cosine \(share(fitting.cosine)), "
                + "Search my library \(share(fitting.library)), catalog hybrid \(share(fitting.catalog))")
        #expect(fitting.library >= fitting.cosine, "Search my library should do at least as well as plain cosine")
        #expect(fitting.catalog >= fitting.cosine, "the catalog's hybrid should do at least as well as plain cosine")
    }
}
