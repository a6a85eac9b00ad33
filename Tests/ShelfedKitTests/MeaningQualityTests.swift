import Foundation
import Logging
import Testing

@testable import ShelfedKit

/// The project's own quality set for search by meaning (issue 23, DESIGN §14): every real book with a description in
/// the recorded provider answers (`../shared/fixtures/googlebooks`), 30 questions written to avoid each book's words,
/// and 15 "similar to" questions whose answers a reader would give (a series' other books, books about the same
/// saga, writers of a kind). Measured at 128 and 256 word pieces against BM25; the figures are printed and recorded
/// in benchmarks/README.md, and the bar is held at the length the server uses (256).
@Suite(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
struct MeaningQualityTests {
    /// Second questions for some books, and questions for the books `MeaningSearchTests.questions` leaves out.
    static let moreQuestions: [(String, String)] = [
        (
            "a gentleman who withdrew from public life in the sixteenth century writes rambling pieces on horses, "
                + "faith, desire and companionship",
            "The Complete Essays"
        ),
        (
            "media theory tracing how schooling, typewriters and sound recording changed who writes between two eras",
            "Discourse Networks 1800/1900"
        ),
        (
            "a caped vigilante hurries to rescue a police chief and his child from a murderous jester",
            "Batman: Killing Joke (DELUXE)"
        ),
        (
            "tales about a linguist decoding the tongue of visitors from the stars, later adapted into a hit film",
            "Stories of Your Life and Others"
        ),
        (
            "a castaway on a deserted isle discovers the strangers around him are projections of a strange machine",
            "The Invention of Morel"
        ),
        ("a spouse and her partner jointly pen obsessive notes to an aloof academic who never replies", "I Love Dick"),
        ("a monthly about gadgets, inventions and discoveries for curious minds", "Popular Science"),
        ("a theological take on the schoolboy sorcerer novels through scripture and faith", "Baptizing Harry Potter"),
        ("lyrical meditations on an obsession with one particular shade of blue", "Bluets"),
        (
            "scholars use a boy-sorcerer saga to explain global politics between nations",
            "Harry Potter and International Relations"
        ),
        (
            "a theatre script in which the grown-up boy sorcerer is a weary civil servant whose teenage son resents him",
            "Harry Potter and the Cursed Child – Parts One and Two (Special Rehearsal Edition)"
        ),
        (
            "the concluding volume in which the teenage sorcerer hunts pieces of an evil villain's soul",
            "Harry Potter and the Deathly Hallows"
        ),
        (
            "a teenage sorcerer is forced into a deadly contest between academies of sorcery as an old enemy rises",
            "Harry Potter and the Goblet of Fire"
        ),
        (
            "an orphan living with nasty relatives discovers sorcery powers and enrolls at an academy for spellcasters",
            "Harry Potter and the Sorcerer's Stone"
        ),
        (
            "Ein Waisenjunge entdeckt magische Kräfte und besucht ein Internat",
            "Harry Potter und der Stein der Weisen"
        ),
        (
            "every volume of the boy-sorcerer saga bundled together as a digital box set",
            "Harry Potter: The Complete Collection (1-7)"
        ),
        (
            "a first book following a girl who becomes a restless wife and walks out on her cheating spouse",
            "Near to the Wild Heart"
        ),
        (
            "academic essays interpreting the boy wizard saga for the young people it was written for",
            "Reading Harry Potter"
        ),
        (
            "therapy ideas that use a beloved fantasy saga to help youngsters deal with fear and loss",
            "Harry Potter Power"
        ),
        (
            "behind the scenes of the screen versions of the boy wizard saga: performers, sets and trickery",
            "Harry Potter handbook, movie magic"
        ),
        (
            "a stream-of-consciousness portrait of a young wife's restless mind by a celebrated author from Rio",
            "Near to the Wild Heart"
        ),
    ]

    static var questions: [(String, String)] { MeaningSearchTests.questions + moreQuestions }

    static let rowling: Set<String> = [
        "Harry Potter and the Sorcerer's Stone", "Harry Potter and the Goblet of Fire",
        "Harry Potter and the Deathly Hallows", "Harry Potter: The Complete Collection (1-7)",
        "Harry Potter und der Stein der Weisen",
        "Harry Potter and the Cursed Child – Parts One and Two (Special Rehearsal Edition)",
    ]
    static let aboutThePotterBooks: Set<String> = [
        "Reading Harry Potter", "Baptizing Harry Potter", "Harry Potter and International Relations",
        "Harry Potter Power",
    ]
    static let womenWriting: Set<String> = ["Bluets", "I Love Dick", "Near to the Wild Heart"]

    /// A book and the books a reader would call like it.
    static var similarTo: [(String, Set<String>)] {
        var pairs: [(String, Set<String>)] = []
        for group in [rowling, aboutThePotterBooks, womenWriting] {
            for title in group.sorted() { pairs.append((title, group.subtracting([title]))) }
        }
        pairs.append(("The Invention of Morel", ["Stories of Your Life and Others", "Near to the Wild Heart"]))
        pairs.append(("Stories of Your Life and Others", ["The Invention of Morel"]))
        return pairs
    }

    /// Broad topics and every book that fits each.
    static var broadTopics: [(String, Set<String>)] {
        [
            (
                "something about a young wizard",
                rowling.union(aboutThePotterBooks).union(["Harry Potter handbook, movie magic"])
            ),
            (
                "thoughtful nonfiction essays and criticism",
                aboutThePotterBooks.union(["The Complete Essays", "Bluets", "Discourse Networks 1800/1900"])
            ),
        ]
    }

    struct Figures: CustomStringConvertible {
        var first = 0
        var topFive = 0
        var questions = 0
        var similarMeaning: Double = 0
        var similarShelfed: Double = 0
        /// Of the first five answers to each broad topic, the share that fit it.
        var broadFitting: Double = 0

        var description: String {
            String(
                format: "paraphrases: first %d/%d (%.0f%%), top 5 %d/%d (%.0f%%); similar R-precision: cosine %.2f, "
                    + "Shelfed %.2f; broad topics %.0f%% of the top 5 fitting", first, questions,
                100 * Double(first) / Double(questions), topFive, questions, 100 * Double(topFive) / Double(questions),
                similarMeaning, similarShelfed, 100 * broadFitting)
        }
    }

    @Test func paraphrasesAndSimilarBooksMeetTheBar() async throws {
        let real = try MeaningSearchTests.realBooks()
        let books = real.enumerated().map { index, book in
            Book(
                id: Int64(index + 1), title: book.title,
                authors: book.authors.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                description: book.description, categories: book.categories, source: .google, createdAt: Date(),
                updatedAt: Date())
        }
        let titles = Set(books.map(\.title))
        #expect(Self.questions.count == 30 && Self.similarTo.count == 15)
        for (question, title) in Self.questions { #expect(titles.contains(title), "\(question)") }
        for (title, alike) in Self.similarTo { #expect(titles.contains(title) && alike.isSubset(of: titles)) }
        let texts = books.map(EmbeddingStore.text(of:))

        let tokenizer = try WordPieceTokenizer(
            contentsOf: EmbeddingModelFiles.folder.appendingPathComponent("tokenizer.json"))
        let long = texts.filter { tokenizer.ids(for: $0, maxTokens: 512).count > 128 }.count
        print("\(long) of \(texts.count) book texts are longer than 128 word pieces")
        let bm25 = BM25(texts)
        var keywordFigures = Figures(questions: Self.questions.count)
        for (question, title) in Self.questions {
            let ranked = bm25.ranking(for: question).map { books[$0].title }
            if ranked.first == title { keywordFigures.first += 1 }
            if ranked.prefix(5).contains(title) { keywordFigures.topFive += 1 }
        }
        let keywordSimilar = Self.rPrecision { title in
            let index = books.firstIndex { $0.title == title }!
            return bm25.ranking(for: texts[index]).filter { $0 != index }.map { books[$0].title }
        }
        print(
            String(
                format: "BM25 (any word): paraphrases first %d/%d, top 5 %d/%d; similar R-precision %.2f",
                keywordFigures.first, keywordFigures.questions, keywordFigures.topFive, keywordFigures.questions,
                keywordSimilar))

        var atLength: [Int: Figures] = [:]
        for length in [128, 256] {
            var logger = Logger(label: "quality")
            logger.logLevel = .critical
            let embedder = TextEmbedder(folder: EmbeddingModelFiles.folder, maxTokens: length, logger: logger)
            let vectors = try #require(try await embedder.embed(texts))
            var figures = Figures(questions: Self.questions.count)
            for (question, title) in Self.questions {
                let query = try #require(try await embedder.embed([question])?.first)
                let cosines = books.indices.map { (id: Int64($0), cosine: MeaningVector.dot(query, vectors[$0])) }
                let ranked = MeaningSearch.rank(keywordScores: [:], cosines: cosines, limit: 5).map {
                    books[Int($0.id)].title
                }
                if ranked.first == title { figures.first += 1 }
                if ranked.contains(title) { figures.topFive += 1 }
            }
            var fitting = 0
            for (topic, fits) in Self.broadTopics {
                let query = try #require(try await embedder.embed([topic])?.first)
                let cosines = books.indices.map { (id: Int64($0), cosine: MeaningVector.dot(query, vectors[$0])) }
                fitting +=
                    MeaningSearch.rank(keywordScores: [:], cosines: cosines, limit: 5).filter {
                        fits.contains(books[Int($0.id)].title)
                    }.count
            }
            figures.broadFitting = Double(fitting) / Double(5 * Self.broadTopics.count)
            func similar(_ title: String, withBonuses: Bool) -> [String] {
                let index = books.firstIndex { $0.title == title }!
                let book = books[index]
                let authors = Set(book.authors.map(SimilarBooks.nameKey))
                let categories = Set(book.categories.map { $0.lowercased() })
                return books.indices.filter { $0 != index }.map { other -> (String, Float) in
                    let cosine = MeaningVector.dot(vectors[index], vectors[other])
                    guard withBonuses else { return (books[other].title, cosine) }
                    let score = SimilarBooks.score(
                        cosine: cosine,
                        sameAuthor: !authors.isDisjoint(with: books[other].authors.map(SimilarBooks.nameKey)),
                        sharedCategories: books[other].categories.filter { categories.contains($0.lowercased()) }.count)
                    return (books[other].title, score)
                }.sorted { $0.1 > $1.1 }.map(\.0)
            }
            figures.similarMeaning = Self.rPrecision { similar($0, withBonuses: false) }
            figures.similarShelfed = Self.rPrecision { similar($0, withBonuses: true) }
            print("\(length) word pieces: \(figures)")
            atLength[length] = figures
        }

        // The bar (issue 23), at the length the server uses.
        let served = try #require(atLength[256])
        #expect(Double(served.topFive) >= 0.8 * Double(served.questions), "\(served)")
        #expect(Double(served.first) >= 0.5 * Double(served.questions), "\(served)")
        #expect(served.similarShelfed > keywordSimilar, "\(served) against BM25 \(keywordSimilar)")
        #expect(served.similarShelfed >= served.similarMeaning, "\(served)")
        #expect(served.broadFitting >= 0.6, "\(served)")
        // Words alone find far fewer of the paraphrases.
        #expect(keywordFigures.topFive < served.topFive)
    }

    /// The mean, over the "similar to" questions, of the share of the first R answers that are among the R expected.
    static func rPrecision(_ ranking: (String) -> [String]) -> Double {
        let shares = similarTo.map { title, alike in
            Double(ranking(title).prefix(alike.count).filter(alike.contains).count) / Double(alike.count)
        }
        return shares.reduce(0, +) / Double(shares.count)
    }
}

/// Okapi BM25 over a handful of texts (k1 1.2, b 0.75), any word of the query counting: the keyword baseline the
/// meaning ranking is measured against.
struct BM25 {
    let documents: [[String: Int]]
    let lengths: [Double]
    let averageLength: Double
    let documentFrequency: [String: Int]

    init(_ texts: [String]) {
        documents = texts.map { text in
            Dictionary(Self.words(text).map { ($0, 1) }, uniquingKeysWith: +)
        }
        lengths = documents.map { Double($0.values.reduce(0, +)) }
        averageLength = lengths.reduce(0, +) / Double(max(lengths.count, 1))
        var frequency: [String: Int] = [:]
        for document in documents { for word in document.keys { frequency[word, default: 0] += 1 } }
        documentFrequency = frequency
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// Document indices, best first (ties in document order).
    func ranking(for query: String) -> [Int] {
        let terms = Set(Self.words(query))
        let count = Double(documents.count)
        let scores = documents.indices.map { index -> Double in
            terms.reduce(0) { sum, term in
                guard let frequency = documents[index][term].map(Double.init) else { return sum }
                let containing = Double(documentFrequency[term] ?? 0)
                let idf = log(1 + (count - containing + 0.5) / (containing + 0.5))
                let norm = frequency + 1.2 * (1 - 0.75 + 0.75 * lengths[index] / averageLength)
                return sum + idf * frequency * 2.2 / norm
            }
        }
        return documents.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
    }
}
