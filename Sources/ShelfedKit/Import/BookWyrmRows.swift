import Foundation

/// BookWyrm's CSV export: `author_text`, `isbn_13`/`isbn_10`, the last read's `start_date`/`finish_date`,
/// the review's HTML in `review_content`, and the shelf's identifier in `shelf`.
struct BookWyrmRows: ImportRowReader {
    func read(_ record: ImportRecord) -> ImportRowReading {
        let title: String
        switch self.title(record["title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var book = ImportedBook(title: title)
        book.authors = ImportValues.names(record["author_text"])
        let cells = [
            (column: "isbn_13", cell: ImportValues.isbn(record["isbn_13"])),
            (column: "isbn_10", cell: ImportValues.isbn(record["isbn_10"])),
        ]
        if let problem = book.takeISBN(from: cells) { return .problem(problem.message) }
        for (column, key) in [
            ("openlibrary_key", "openlibrary"), ("goodreads_key", "goodreads"),
            ("librarything_key", "librarything"), ("asin", "asin"),
        ] {
            if let id = ImportValues.cell(record[column]), id.count <= 40,
                id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            {
                book.externalIDs[key] = id
            }
        }
        let shelfCell = ImportValues.cell(record["shelf"])
        if shelfCell == "stopped-reading" {
            book.shelf = .custom("stopped-reading")
        } else {
            book.shelf = ImportShelves.exclusive(shelfCell, column: "shelf", notes: &book.notes)
        }
        book.rating = ImportValues.rating(record["rating"], notes: &book.notes)
        book.review = ImportValues.paragraphs(record["review_content"])
        book.takeAddedOn(record["shelf_date"], column: "shelf_date")
        switch (
            ImportedBook.day(record["start_date"], column: "start_date"),
            ImportedBook.day(record["finish_date"], column: "finish_date")
        ) {
        case (.success(let start), .success(let finish)):
            if start != nil || finish != nil || book.shelf == .known(.read) {
                book.readThroughs = [ReadThrough(startedOn: start, finishedOn: finish)]
            }
        case (.failure(let problem), _), (_, .failure(let problem)):
            return .problem(problem.message)
        }
        return checkLengths(book)
    }
}
