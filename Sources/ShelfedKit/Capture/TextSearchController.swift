import Foundation
import Hummingbird
import Mustache

/// "Search my quotes" (the words on page photos and their comments) and "Search my library" (titles, authors,
/// descriptions, reviews): full-text, only ever over the signed-in user's own photos and books.
struct TextSearchController: Sendable {
    let store: TextSearchStore
    let meaning: MeaningSearch
    let renderer: PageRenderer

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.quotes.routerPath, use: quotes)
        router.get(Route.librarySearch.routerPath, use: library)
    }

    /// GET /quotes?q=: by meaning and words together when the model is there, by words alone when not.
    @Sendable func quotes(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = Self.query(request)
        var matches: [TextSearchStore.QuoteMatch] = []
        var rankedBy: String?
        if TextSearchStore.ftsQuery(query) != nil {
            (matches, rankedBy) = try await quoteMatches(of: context.userID, query)
        }
        var page = TextSearchPage(
            context: context, kind: .quotes, query: query,
            results: matches.map { match in
                TextSearchPage.Result(
                    path: Paths.photo(match.photo.id!), title: match.bookTitle,
                    detail: match.photo.placeLabel,
                    thumbURL: Paths.photoFile(match.photo.id!, .thumb),
                    passage: TextSearchStore.highlighted(match.snippet).html)
            })
        page.rankedBy = matches.isEmpty ? nil : rankedBy
        return try renderer.render(page, template: "search/text")
    }

    /// GET /library/search?q=: by meaning and words together when the model is there, by words alone when not.
    @Sendable func library(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = Self.query(request)
        var matches: [TextSearchStore.LibraryMatch] = []
        var rankedBy: String?
        if TextSearchStore.ftsQuery(query) != nil {
            (matches, rankedBy) = try await libraryMatches(of: context.userID, query)
        }
        var page = TextSearchPage(
            context: context, kind: .library, query: query,
            results: matches.map { match in
                TextSearchPage.Result(
                    path: Paths.book(match.bookID), title: match.title,
                    detail: [match.authors, match.shelf.title].filter { !$0.isEmpty }.joined(separator: " · "),
                    thumbURL: BookCover.url(for: match.coverPath),
                    passage: TextSearchStore.highlighted(match.snippet).html,
                    thumbAlt: match.coverPath == nil
                        ? localized("No cover") : localized("Cover of {{title}}", ["title": match.title]),
                    isCover: true)
            })
        page.rankedBy = matches.isEmpty ? nil : rankedBy
        return try renderer.render(page, template: "search/text")
    }

    /// The matches, best first, and a line saying how they were ranked.
    func libraryMatches(of userID: Int64, _ query: String) async throws -> (
        [TextSearchStore.LibraryMatch], String
    ) {
        let (mode, ranked) = try await meaning.library(of: userID, matching: query, limit: TextSearchStore.limit)
        guard mode == .hybrid else {
            // Without meaning, every word must match (the last as a prefix), as before: precise, not a long tail.
            return (try await store.library(of: userID, matching: query), wordsOnlyLine(mode))
        }
        let highlighted = Dictionary(
            try await store.library(of: userID, matching: query).map { ($0.bookID, $0) },
            uniquingKeysWith: { a, _ in a })
        let entries = try await store.libraryEntries(
            of: userID, ids: ranked.map(\.id).filter { highlighted[$0] == nil })
        let progress = try await meaning.embeddings.libraryProgress(of: userID, model: TextEmbedder.modelID)
        return (
            ranked.compactMap { highlighted[$0.id] ?? entries[$0.id] },
            Self.hybridLine(progress, of: .library)
        )
    }

    /// The quotes, best first, and a line saying how they were ranked.
    func quoteMatches(of userID: Int64, _ query: String) async throws -> (
        [TextSearchStore.QuoteMatch], String
    ) {
        let (mode, ranked) = try await meaning.quotes(of: userID, matching: query, limit: TextSearchStore.limit)
        guard mode == .hybrid else {
            return (try await store.quotes(of: userID, matching: query), wordsOnlyLine(mode))
        }
        let highlighted = Dictionary(
            try await store.quotes(of: userID, matching: query).map { ($0.photo.id!, $0) },
            uniquingKeysWith: { a, _ in a })
        let entries = try await store.quoteEntries(of: userID, ids: ranked.map(\.id).filter { highlighted[$0] == nil })
        let progress = try await meaning.embeddings.photoProgress(of: userID, model: TextEmbedder.modelID)
        return (
            ranked.compactMap { highlighted[$0.id] ?? entries[$0.id] },
            Self.hybridLine(progress, of: .quotes)
        )
    }

    private func wordsOnlyLine(_ mode: MeaningSearch.Mode) -> String {
        if mode == .resting {
            return localized(
                "Matched by words only for now: you have searched by meaning {{count}} times this minute.",
                ["count": String(MeaningSearch.questionsPerMinute)]) + " " + localized("It is back within a minute.")
        }
        return meaning.embedder == nil
            ? localized("Matched by words only.")
            : localized("Matched by words only: search by meaning is not available on this server.")
    }

    /// "Ranked by meaning and words.", and how many of the books (`.library`) or page photos (`.quotes`) are still
    /// waiting for their meaning vectors.
    static func hybridLine(_ progress: (embedded: Int, total: Int), of things: TextSearchPage.Kind) -> String {
        var line = localized("Ranked by meaning and words.")
        if progress.embedded < progress.total {
            let waiting = progress.total - progress.embedded
            let values: KeyValuePairs<String, String> = [
                "total": String(progress.total), "rest": localized("until then they are found by their words."),
            ]
            line +=
                " "
                + (things == .library
                    ? localized(
                        one: "{{count}} of your {{total}} books are still being read for meaning; {{rest}}",
                        other: "{{count}} of your {{total}} books are still being read for meaning; {{rest}}",
                        count: waiting, values)
                    : localized(
                        one: "{{count}} of your {{total}} page photos are still being read for meaning; {{rest}}",
                        other: "{{count}} of your {{total}} page photos are still being read for meaning; {{rest}}",
                        count: waiting, values))
        }
        return line
    }

    /// `q`, as typed (a `+` is a space), at most 300 characters.
    static func query(_ request: Request) -> String {
        let text = FormFields(urlEncoded: request.uri.query ?? "")["q"] ?? ""
        return String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(300))
    }
}

/// `search/text`: one full-text search over the user's quotes or library, with its results.
struct TextSearchPage: Sendable {
    enum Kind: Sendable {
        case quotes, library
    }

    struct Result: Sendable {
        let path: String
        let title: String
        let detail: String?
        let thumbURL: String?
        /// Escaped text with the matched words in `<mark>`.
        let passage: String
        var thumbAlt = ""
        /// A book cover (two by three) rather than a square photo.
        var isCover = false
    }

    let chrome: PageChrome
    let heading: String
    let action: String
    let label: String
    let placeholder: String
    let query: String
    let hasQuery: Bool
    let results: [Result]
    let summary: String?
    let emptyMessage: String
    let introduction: String
    let otherSearchPath: String
    let otherSearchLabel: String
    let googleSearchPath: String
    /// How the results were ranked ("Ranked by meaning and words.").
    var rankedBy: String?

    init(context: some PageContext, kind: Kind, query: String, results: [Result]) {
        let quotes = kind == .quotes
        heading = quotes ? localized("Search my quotes") : localized("Search my library")
        let title =
            query.isEmpty
            ? heading
            : quotes
                ? localized("Search my quotes: {{query}}", ["query": query])
                : localized("Search my library: {{query}}", ["query": query])
        chrome = PageChrome(title: title, context: context, tab: .shelves)
        action = quotes ? Paths.quotes : Paths.librarySearch
        label =
            quotes
            ? localized("Words from your page photos and comments")
            : localized("Title, author, description or your review")
        placeholder =
            quotes ? localized("A word or phrase you remember") : localized("Title, author or a word from your review")
        self.query = query
        hasQuery = !query.isEmpty
        self.results = results
        summary =
            results.isEmpty
            ? nil
            : results.count == TextSearchStore.limit
                ? localized("The first {{count}} matches", ["count": String(results.count)])
                : localized(one: "{{count}} match", other: "{{count}} matches", count: results.count)
        if TextSearchStore.ftsQuery(query) == nil {
            emptyMessage = localized("Type a word or two to look for: letters or digits.")
        } else if quotes {
            emptyMessage =
                localized("None of your page photos or comments has “{{query}}”.", ["query": query]) + " "
                + Self.readInBackground
        } else {
            emptyMessage = localized(
                "Nothing in your library mentions “{{query}}”. To find a new book, search Google Books instead.",
                ["query": query])
        }
        if quotes {
            introduction =
                localized(
                    "Shelfed reads the words on the page photos you keep and searches them with your comments.")
                + " " + localized("Only you see your photos.")
        } else {
            introduction = localized(
                "Search the titles, authors and descriptions of the books on your shelves, and your own reviews.")
        }
        googleSearchPath = Paths.search(query)
        otherSearchPath = quotes ? Paths.librarySearch : Paths.quotes
        otherSearchLabel = quotes ? localized("Search my library instead") : localized("Search my quotes instead")
    }

    private static var readInBackground: String {
        localized(
            "Words are read from new photos in the background, so a photo you just added may not be searchable yet.")
    }
}

// Through a Mirror, each lookup reflected the page with its fifty results: a quarter of a search's CPU at 5,000 books.
extension TextSearchPage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "chrome": self.chrome
        case "heading": self.heading
        case "action": self.action
        case "label": self.label
        case "placeholder": self.placeholder
        case "query": self.query
        case "hasQuery": self.hasQuery
        case "results": self.results
        case "summary": self.summary
        case "emptyMessage": self.emptyMessage
        case "introduction": self.introduction
        case "otherSearchPath": self.otherSearchPath
        case "otherSearchLabel": self.otherSearchLabel
        case "googleSearchPath": self.googleSearchPath
        case "rankedBy": self.rankedBy
        default: nil
        }
    }
}

extension TextSearchPage.Result: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "path": self.path
        case "title": self.title
        case "detail": self.detail
        case "thumbURL": self.thumbURL
        case "passage": self.passage
        case "thumbAlt": self.thumbAlt
        case "isCover": self.isCover
        default: nil
        }
    }
}
