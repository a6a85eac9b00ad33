import Foundation

extension BookPage {
    /// The books like this one, or a note saying why there are none yet.
    struct SimilarSection: Sendable {
        struct Item: Sendable {
            let title: String
            let authors: String?
            let coverURL: String
            let hasCover: Bool
            /// The book's page when it is in the person's library.
            let path: String?
            let reasons: String
            let shelfTitle: String?
            /// How to add it when it is not in the library: its Google volume id, or else its ISBN.
            let addVolumeID: String?
            let addISBN: String?
            let addPath: String
            let returnTo: String
            let csrf: String
        }

        let books: [Item]
        let note: String?

        init(_ similar: [SimilarBooks.Similar], bookID: Int64, embedded: Bool, csrf: String) {
            let returnTo = Paths.book(bookID)
            books = similar.map { found in
                let book = found.book
                let link = CatalogLink(book, inLibrary: found.shelf != nil)
                return Item(
                    title: book.title, authors: book.authors.isEmpty ? nil : book.authors.joined(separator: ", "),
                    coverURL: BookCover.url(for: book.coverPath), hasCover: book.coverPath != nil, path: link.path,
                    reasons: found.reasons.joined(separator: " · "), shelfTitle: found.shelf?.title,
                    addVolumeID: link.addVolumeID, addISBN: link.addISBN, addPath: Paths.searchAdd, returnTo: returnTo,
                    csrf: csrf)
            }
            note =
                !embedded
                ? "Shelfed is still reading this book for meaning; similar books appear here in a moment."
                : similar.isEmpty
                    ? "Nothing in your library or among the books Shelfed knows is much like this one yet." : nil
        }
    }
}
