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
                    reasons: found.reasons.map(\.phrase).joined(separator: " · "), shelfTitle: found.shelf?.title,
                    addVolumeID: link.addVolumeID, addISBN: link.addISBN, addPath: Paths.searchAdd, returnTo: returnTo,
                    csrf: csrf)
            }
            note =
                !embedded
                ? Self.waitingNote
                : similar.isEmpty
                    ? localized("Nothing in your library or among the titles Shelfed knows is much like this one yet.")
                    : nil
        }

        /// Said while the book has not been read for meaning yet.
        static var waitingNote: String {
            localized(
                "Shelfed is still reading this for meaning; similar books, films and shows appear here in a moment.")
        }
    }
}

extension BookPage.SimilarSection {
    /// The list as markup, built in Swift like the shelf cards: eight books of a dozen fields, each looked up through
    /// Mustache's context stack with its dynamic casts, were the largest part of the book page's rendering (issue 36,
    /// part 9). The markup is the one the template had; empty when there are no books.
    var booksHTML: HTMLFragment {
        guard !books.isEmpty else { return HTMLFragment() }
        var html: HTMLFragment = "<ol class=\"results text-results\">\n"
        for item in books {
            let alt = item.hasCover ? localized("Cover of {{title}}", ["title": item.title]) : localized("No cover")
            html += "    <li class=\"result\">\n"
            html += "      <img src=\"\(item.coverURL)\" alt=\"\(alt)\" width=\"64\" height=\"96\" loading=\"lazy\">\n"
            html += "      <div class=\"result-body\">\n"
            if let path = item.path {
                html += "        <h3 class=\"result-title\"><a href=\"\(path)\">\(item.title)</a></h3>\n"
            } else {
                html += "        <h3 class=\"result-title\">\(item.title)</h3>\n"
            }
            if let authors = item.authors { html += "        <p class=\"card-authors\">\(authors)</p>\n" }
            html += "        <p class=\"passage\">\(item.reasons)"
            if let shelf = item.shelfTitle { html += " · \(localized("On your {{shelf}} shelf", ["shelf": shelf]))" }
            html += "</p>\n"
            for (field, value) in [("volume_id", item.addVolumeID), ("isbn", item.addISBN)] {
                guard let value else { continue }
                html += "        <form method=\"post\" action=\"\(item.addPath)\" class=\"inline-form\">"
                html += "<input type=\"hidden\" name=\"_csrf\" value=\"\(item.csrf)\">"
                html += "<input type=\"hidden\" name=\"\(field)\" value=\"\(value)\">"
                html += "<input type=\"hidden\" name=\"shelf\" value=\"want_to_read\">"
                html += "<input type=\"hidden\" name=\"return_to\" value=\"\(item.returnTo)\">"
                html += "<button type=\"submit\" class=\"button\">\(localized("Add to Want to read"))</button></form>\n"
            }
            html += "      </div>\n"
            html += "    </li>\n"
        }
        html += "  </ol>"
        return html
    }
}
