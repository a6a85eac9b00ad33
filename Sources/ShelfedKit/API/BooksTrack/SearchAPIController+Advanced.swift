import Foundation
import Hummingbird

extension SearchAPIController {
    /// GET /v1/search/advanced?author=&title=&isbn= (at least one): title and author narrow Google Books' search
    /// (`intitle:`, `inauthor:`); an ISBN is looked up as `/v1/search/isbn` does, and title or author, when given
    /// too, must then match the book found. The answer is the title search's shape.
    @Sendable func advanced(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = Self.query(of: request)
        let title = try Self.text(query["title"], name: "title")
        let author = try Self.text(query["author"], name: "author")
        let isbnText = try Self.text(query["isbn"], name: "isbn")
        guard title != nil || author != nil || isbnText != nil else {
            throw BooksTrackError.invalid(localized("Give at least one of title, author or isbn."))
        }
        let limit = try Self.limit(query)
        if let isbnText {
            guard let isbn = ISBN(isbnText) else {
                throw BooksTrackError.invalid("isbn must be a valid ISBN-10 or ISBN-13.")
            }
            let answer = try await search.lookup(isbn: isbn)
            let items = answer.results.items.filter { Self.matches($0, title: title, author: author) }
            let books = items.prefix(limit).map(BookDTO.init)
            return Self.respond(
                BookList(books: Array(books), totalItems: items.count), answer: answer,
                provider: items.first?.provider ?? .googleBooks, maxAge: BookSearchService.isbnLifetime)
        }
        let googleQuery = Self.googleQuery(title: title, author: author)
        guard !googleQuery.isEmpty else {
            throw BooksTrackError.invalid("title and author need letters or digits to search for.")
        }
        if let userID = context.identity?.id {
            let typed = [title, author].compactMap { $0 }.joined(separator: " ")
            try await history.record(typed, userID: userID, now: now())
        }
        return try await respondWithPages(limit: limit) { start in
            try await search.search(googleQuery: googleQuery, startIndex: start)
        }
    }

    /// `intitle:` before each word of the title and `inauthor:` before each of the author's. Only letters, digits
    /// and the marks inside words are kept, so nothing typed can become another Google Books operator.
    static func googleQuery(title: String?, author: String?) -> String {
        func words(_ text: String?, _ prefix: String) -> [String] {
            (text ?? "").split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "-" })
                .prefix(12).map { prefix + $0 }
        }
        return (words(title, "intitle:") + words(author, "inauthor:")).joined(separator: " ")
    }

    /// Whether `volume`'s title and authors hold every word of `title` and `author`, ignoring case and accents.
    static func matches(_ volume: VolumeResult, title: String?, author: String?) -> Bool {
        func folded(_ text: String) -> String {
            text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        func holds(_ haystack: String, _ needle: String?) -> Bool {
            guard let needle else { return true }
            let text = folded(haystack)
            return folded(needle).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).allSatisfy {
                text.contains($0)
            }
        }
        return holds([volume.title, volume.subtitle ?? ""].joined(separator: " "), title)
            && holds(volume.authors.joined(separator: " "), author)
    }
}
