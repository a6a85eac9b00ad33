import Foundation

extension BookSearchService {
    /// Work, edition and authors for an ISBN: Open Library's records, with Google Books filling the gaps (or
    /// answering alone when Open Library does not know the book or fails). Cached like ISBN lookups.
    /// Throws `UpstreamFailure.notFound` when neither provider knows it.
    public func enrich(isbn: ISBN) async throws -> (book: EnrichedBook, cached: Bool) {
        let key = "enrich:\(isbn.isbn13)"
        if let cached = try await cache.value(EnrichedBook.self, for: key) { return (cached, true) }
        let book = try await enrichments.value(for: key) { [openLibrary, cache] in
            var openLibraryFailure: UpstreamFailure?
            var book: EnrichedBook?
            do {
                book = try await openLibrary.enrichment(isbn: isbn)
            } catch let failure as UpstreamFailure {
                openLibraryFailure = failure
            }
            let needsGoogle = book.map { $0.work.title == nil || $0.authors.isEmpty || $0.edition.numberOfPages == nil }
            if needsGoogle ?? true {
                do {
                    if let volume = try await self.lookup(isbn: isbn).results.items.first(where: { $0.carries(isbn) }) {
                        var filled = book ?? EnrichedBook()
                        filled.fillGaps(from: volume)
                        book = filled
                    }
                } catch let failure as UpstreamFailure {
                    if book == nil { throw openLibraryFailure ?? failure }
                }
            }
            guard let book, !book.isEmpty else { throw openLibraryFailure ?? UpstreamFailure.notFound }
            try await cache.store(book, for: key, lifetime: Self.isbnLifetime)
            return book
        }
        return (book, false)
    }
}
