import Foundation

extension ImportJobPage {
    /// One row of the preview: what the import will make of it, in the words of its kind (a film is watched).
    struct PreviewRow: Sendable {
        let row: Int
        let title: String
        let authors: String
        let shelf: String
        let reads: String
        let rating: String?
        let lists: String?
        let notes: [String]

        init(row: Int, book: ImportedBook, mapping: [String: Shelf]) {
            self.row = row
            title = book.title + (book.screenKind != nil ? book.year.map { " (\($0))" } ?? "" : "")
            authors = book.authors.joined(separator: ", ")
            let kind = book.screenKind ?? .book
            switch book.shelf {
            case .known(let shelf): self.shelf = shelf.title(for: kind)
            case .custom(let name):
                let shelf = (mapping[name] ?? .wantToRead).title(for: kind)
                self.shelf = localized("{{shelf}} (from “{{name}}”)", ["shelf": shelf, "name": name])
            }
            if book.screenKind != nil {
                reads = ImportJobPage.viewings(book)
                rating = book.rating.map { ImportJobPage.stars($0) }
                lists = book.lists.isEmpty ? nil : book.lists.joined(separator: ", ")
                notes = book.notes + (book.favourite ? [localized("A favourite.")] : [])
                return
            }
            let dated = book.readThroughs.compactMap { read -> String? in
                switch (read.startedOn, read.finishedOn) {
                case (nil, nil): nil
                case (let start?, nil): localized("started {{day}}", ["day": start])
                case (nil, let end?): localized("finished {{day}}", ["day": end])
                case (let start?, let end?): "\(start) – \(end)"
                }
            }
            reads =
                dated.isEmpty
                ? (book.shelf == .known(.read) ? localized("Read, date unknown") : "") : dated.joined(separator: "; ")
            rating = book.rating.map { ImportJobPage.stars($0) }
            lists = book.lists.isEmpty ? nil : book.lists.joined(separator: ", ")
            notes = book.notes
        }
    }

    /// "Watched 2021-05-02 (seen before)", "date unknown" (beside the shelf, Watched), or nothing for the watchlist.
    static func viewings(_ item: ImportedBook) -> String {
        let days = (item.viewings ?? []).compactMap { viewing in
            viewing.day.map { day in
                viewing.rewatch
                    ? localized("Watched {{day}} (seen before)", ["day": day])
                    : localized("Watched {{day}}", ["day": day])
            }
        }
        if !days.isEmpty { return days.joined(separator: "; ") }
        return item.shelf == .known(.read) ? localized("date unknown") : ""
    }
}
