import Foundation

/// Goodreads' export (31, 24 and 23 columns; Shelfed's own export has the same header). ISBNs come as
/// `="0316332879"`, `My Rating` 0 means unrated, `Bookshelves` holds every shelf and `Exclusive Shelf` the one
/// that decides the shelf; reviews are HTML.
struct GoodreadsRows: ImportRowReader {
    func read(_ record: ImportRecord) -> ImportRowReading {
        let title: String
        switch self.title(record["Title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var book = ImportedBook(title: title)
        book.authors =
            [ImportValues.line(record["Author"])].compactMap { $0 }
            + ImportValues.names(record["Additional Authors"])
        let isbnCells = [
            ("ISBN13", ImportValues.isbn(record["ISBN13"])), ("ISBN", ImportValues.isbn(record["ISBN"])),
        ]
        if let problem = book.takeISBN(from: isbnCells.map { (column: $0.0, cell: $0.1) }) {
            return .problem(problem.message)
        }
        if let id = ImportValues.cell(record["Book Id"]), id.count <= 20, id.allSatisfy(\.isASCIIDigit) {
            book.externalIDs["goodreads"] = id
        }
        book.rating = ImportValues.rating(record["My Rating"], notes: &book.notes)
        book.community = CommunityRating(goodreadsCell: record["Average Rating"])
        book.shelf = ImportShelves.exclusive(record["Exclusive Shelf"], column: "Exclusive Shelf", notes: &book.notes)
        let shelves = (ImportValues.cell(record["Bookshelves"]) ?? "").split(separator: ",")
            .compactMap { ImportValues.line(String($0)) }
        ImportShelves.apply(tags: shelves, exclusive: book.shelf, to: &book)
        book.review = ImportValues.paragraphs(record["My Review"])
        book.privateNotes = ImportValues.paragraphs(record["Private Notes"])
        if let copies = ImportValues.cell(record["Owned Copies"]), let count = Int(copies), count >= 0 {
            book.owned = count > 0
        }
        book.format = ImportValues.line(record["Binding"]).map { String($0.prefix(60)) }
        book.publisher = ImportValues.line(record["Publisher"]).map { String($0.prefix(300)) }
        book.pageCount = ImportValues.pageCount(record["Number of Pages"], notes: &book.notes)
        book.publishedDate =
            ImportValues.year(record["Year Published"])
            ?? ImportValues.year(record["Original Publication Year"])
        book.takeAddedOn(record["Date Added"], column: "Date Added")
        switch ImportedBook.day(record["Date Read"], column: "Date Read") {
        case .failure(let problem):
            return .problem(problem.message)
        case .success(let finished):
            if book.shelf == .known(.read) || finished != nil {
                book.readThroughs = [ReadThrough(startedOn: nil, finishedOn: finished)]
            }
        }
        return checkLengths(book)
    }
}
