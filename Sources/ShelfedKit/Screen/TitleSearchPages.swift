/// `titles/search`: the search box with its kind filter, the results with their add buttons, and the credit of
/// whoever answered.
struct TitleSearchPage: Sendable {
    struct KindChoice: Sendable {
        let label: String
        let path: String
        let selected: Bool
    }

    var chrome: PageChrome
    let query: String
    let hasQuery: Bool
    let kind: String
    let kinds: [KindChoice]
    var results: [TitleResultView] = [] {
        didSet { hasResults = !results.isEmpty }
    }
    /// Stored, kept by `results`: Mustache reads a value's stored properties only.
    private(set) var hasResults = false
    var failure: String?
    var notice: String?
    var tokenPath: String?
    var credits: [Credit] = []
    let manualAddPath: String
    let findPath: String

    struct Credit: Sendable {
        let text: String
        let link: String
        let name: String
    }

    init(context: some PageContext, query: String, kind: TitleKind?) {
        chrome = PageChrome(
            title: query.isEmpty
                ? localized("Find a film or TV show") : localized("Films and shows: {{query}}", ["query": query]),
            context: context, tab: .shelves)
        self.query = query
        hasQuery = !query.isEmpty
        self.kind = kind?.rawValue ?? ""
        let q = Paths.queryEscape(query)
        let choices: [(String, TitleKind?)] = [
            (localized("All"), nil), (localized("Films"), TitleKind.movie), (localized("TV shows"), TitleKind.show),
        ]
        kinds = choices.map { label, choice in
            KindChoice(
                label: label,
                path: Paths.titleSearch + "?q=" + q + (choice.map { "&kind=" + $0.rawValue } ?? ""),
                selected: choice == kind)
        }
        manualAddPath = Paths.newTitle(kind ?? .movie)
        findPath = Route.find.link() + "?q=" + q
    }

    /// The line under the results naming where they came from (TVmaze asks for it; Wikidata's is CC0 but said all
    /// the same).
    static func credits(for source: String) -> [Credit] {
        source.split(separator: "+").compactMap { part in
            switch part {
            case "tvmaze": Credit(text: localized("Show data from"), link: "https://www.tvmaze.com", name: "TVmaze")
            case "tmdb": Credit(text: localized("Data from"), link: Paths.about, name: "TMDB")
            case "wikidata":
                Credit(text: localized("Film data from"), link: "https://www.wikidata.org", name: "Wikidata")
            default: nil
            }
        }
    }
}

/// One film or show in the results.
struct TitleResultView: Sendable {
    struct AddButton: Sendable {
        let shelf: String
        let label: String
    }

    let title: String
    let originalTitle: String?
    let detail: String
    let overview: String?
    let thumbURL: String
    let hasPoster: Bool
    let source: String
    let providerID: String
    let kind: String
    let inLibraryShelf: String?
    let bookPath: String?
    let addButtons: [AddButton]

    init(_ result: ScreenTitle, inLibrary: (bookID: Int64, shelf: Shelf)?) {
        title = result.title
        originalTitle = result.originalTitle
        detail = [result.kind == .movie ? localized("Film") : localized("TV show"), result.year.map(String.init)]
            .compactMap { $0 }
            .joined(separator: " · ")
        overview = result.overview.map { $0.count > 240 ? String($0.prefix(240)) + "…" : $0 }
        thumbURL =
            result.posterURL.map { $0.replacingOccurrences(of: "/w500/", with: "/w185/") } ?? BookCover.placeholder
        hasPoster = result.posterURL != nil
        source = result.source.rawValue
        providerID = result.providerID ?? ""
        kind = result.kind.rawValue
        inLibraryShelf = inLibrary?.shelf.title(for: result.kind)
        bookPath = inLibrary.map { Paths.book($0.bookID) }
        addButtons =
            inLibrary == nil
            ? [Shelf.wantToRead, .reading, .read].map {
                AddButton(shelf: $0.rawValue, label: $0.title(for: result.kind))
            }
            : []
    }
}

/// `about`: where Shelfed's data comes from, and the notices its providers ask for.
struct AboutPage: Sendable {
    var chrome: PageChrome
}

/// "Data from TVmaze": the credit under a title whose data a provider shares on condition of being named.
struct ProviderCredit: Sendable {
    let text: String
    let link: String
    let name: String

    /// The credit a title's data asks for: its provider's, or, for a person's own row matched to a provider after an
    /// import, the provider its key names.
    init?(_ source: Book.Source, providerKey: String? = nil) {
        var source = source
        if !source.isProvider, let provider = providerKey?.split(separator: ":").first {
            source = Book.Source(rawValue: String(provider)) ?? source
        }
        switch source {
        case .tvmaze: (text, link, name) = (localized("Show data from"), "https://www.tvmaze.com", "TVmaze")
        case .tmdb: (text, link, name) = (localized("Film and show data from"), Paths.about, "TMDB")
        case .wikidata: (text, link, name) = (localized("Film data from"), "https://www.wikidata.org", "Wikidata")
        default: return nil
        }
    }
}
