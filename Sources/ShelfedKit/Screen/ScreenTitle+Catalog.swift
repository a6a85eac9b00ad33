extension NewBook {
    /// The catalog entry for a provider's film or show: its makers where a book has authors, its synopsis where a book
    /// has a description, its genres as categories, the year as the published date.
    init(_ title: ScreenTitle) {
        self.init(title: title.title)
        kind = title.kind
        authors = title.creators
        publishedDate = title.year.map { String(format: "%04d", $0) }
        description = title.overview
        categories = title.genres
        runtimeMinutes = title.runtimeMinutes
        source =
            switch title.source {
            case .tmdb: .tmdb
            case .tvmaze: .tvmaze
            case .wikidata: .wikidata
            }
        providerKey = title.providerKey
        externalIDs = title.ids.catalogIDs
        castNames = title.cast
        seasons = title.seasons
    }
}

extension LibraryService {
    /// Adds a provider's film or show with its details and poster (DESIGN §17). `finishedUnknown`: one put on Watched
    /// has no day yet (the web asks when; the API, as for books, says today). Throws `UpstreamFailure` when the
    /// provider cannot answer or has no such title, `AlreadyInLibrary` when the person has it already.
    func addScreenTitle(
        source: ScreenSource, id: String, kind: TitleKind, to shelf: Shelf, for userID: Int64,
        titles: TitleSearchService, finishedUnknown: Bool = true
    ) async throws -> Int64 {
        let title = try await titles.title(source: source, id: id, kind: kind)
        return try await add(
            NewBook(title), to: shelf, for: userID, coverURL: title.posterURL, finishedUnknown: finishedUnknown)
    }
}
