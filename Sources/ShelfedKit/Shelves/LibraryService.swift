import Foundation

/// The one way a book enters someone's library, whatever the door: the add-by-hand form and search today, the
/// API, import and scan next. It applies the catalog rules of `LibraryStore.add` (shared provider rows, owned
/// hand-typed rows, no duplicates) and stores a provider's cover once, so every entry point behaves the same.
struct LibraryService: Sendable {
    let store: LibraryStore
    let covers: CoverStore
    let search: BookSearchService
    let clock: AppClock

    /// Adds `book` to `shelf` for `userID` and returns the catalog id of the user's entry. Throws
    /// `AlreadyInLibrary` when they have it already. `coverURL` is downloaded when the catalog row has no cover;
    /// a failed download leaves the placeholder.
    /// `finishedUnknown`: see `LibraryStore.add`.
    func add(
        _ book: NewBook, to shelf: Shelf, for userID: Int64, coverURL: String? = nil, finishedUnknown: Bool = false
    ) async throws -> Int64 {
        let bookID = try await store.add(
            book, to: shelf, for: userID, now: clock.now(), today: clock.today(), finishedUnknown: finishedUnknown)
        if let coverURL { await storeCover(from: coverURL, for: bookID) }
        return bookID
    }

    /// Adds a provider's book, found by its Google volume id or else by ISBN, with its metadata and cover.
    /// Throws `UpstreamFailure` when the provider cannot answer or has no such book, `AlreadyInLibrary` as `add`.
    func addFromProvider(
        volumeID: String?, isbn: ISBN?, to shelf: Shelf, for userID: Int64, finishedUnknown: Bool = false
    ) async throws -> Int64 {
        let volume: VolumeResult
        if let volumeID {
            guard SearchRequest.isVolumeID(volumeID) else { throw UpstreamFailure.notFound }
            volume = try await search.volume(id: volumeID)
        } else if let isbn {
            guard let found = try await search.lookup(isbn: isbn).results.items.first else {
                throw UpstreamFailure.notFound
            }
            volume = found
        } else {
            throw UpstreamFailure.notFound
        }
        return try await add(
            NewBook(volume), to: shelf, for: userID, coverURL: volume.coverURL, finishedUnknown: finishedUnknown)
    }

    private func storeCover(from url: String, for bookID: Int64) async {
        guard let entry = try? await store.catalogBook(id: bookID), entry.coverPath == nil,
            let file = await covers.download(url, for: bookID)
        else { return }
        if (try? await store.setCover(bookID: bookID, path: file, now: clock.now())) != true {
            covers.remove(file)
        }
    }
}
