import Foundation

extension SearchController {
    /// How many books the search page offers by meaning.
    static let meaningMatchLimit = 8

    /// When Google Books finds nothing or cannot answer: the books this server already knows (shared provider rows
    /// and the person's own) closest in meaning to what was typed, each addable or marked as on a shelf. Empty
    /// without a model, for a query too short to mean anything, and for one with no word the model knows (keys
    /// mashed, a bare ISBN: Google finding nothing is the answer, not the books nearest to noise).
    func meaningMatches(for text: String, userID: Int64) async throws -> [SearchResultView] {
        guard TextSearchStore.ftsQuery(text) != nil,
            try await meaning.embedder?.knowsAWord(in: text) == true,
            let (_, matches) = try await meaning.catalog(
                userID: userID, matching: text, hybrid: true, limit: Self.meaningMatchLimit, offset: 0)
        else { return [] }
        let books = matches.map(\.book)
        let onShelves = try await textSearch.libraryEntries(of: userID, ids: books.compactMap(\.id))
        let owned = try await library.shelves(
            of: userID, volumeIDs: books.compactMap(\.googleVolumeId), isbn13s: books.compactMap(\.isbn13))
        return books.compactMap { book in
            let entry =
                onShelves[book.id!].map { (bookID: $0.bookID, shelf: $0.shelf) }
                ?? book.googleVolumeId.flatMap { owned["volume:" + $0] } ?? book.isbn13.flatMap { owned["isbn:" + $0] }
            // A book neither on a shelf nor addable (someone's typed row has no id a provider knows) is not offered.
            guard entry != nil || book.googleVolumeId != nil || book.isbn13 != nil || book.isbn10 != nil else {
                return nil
            }
            return SearchResultView(book, inLibrary: entry)
        }
    }
}

extension SearchResultView {
    /// A book of the server's catalog as a search result: added by its Google volume id, or else its ISBN.
    init(_ book: Book, inLibrary: (bookID: Int64, shelf: Shelf)?) {
        let volume = VolumeResult(
            provider: .googleBooks, volumeId: book.googleVolumeId, title: book.title, subtitle: book.subtitle,
            authors: book.authors, publisher: book.publisher, publishedDate: book.publishedDate,
            description: nil, pageCount: book.pageCount, categories: book.categories, language: book.language,
            isbn10: book.isbn10, isbn13: book.isbn13 ?? book.isbn10.flatMap { ISBN($0)?.isbn13 },
            coverURL: nil, thumbnailURL: book.coverPath == nil ? nil : BookCover.url(for: book.coverPath),
            averageRating: nil, ratingsCount: nil)
        self.init(volume, inLibrary: inLibrary)
        // The volume page asks Google Books, which is what just failed or found nothing: a book is linked only
        // to its own page on a shelf.
        detailPath = inLibrary.map { Paths.book($0.bookID) }
    }
}
