import Foundation

/// Which column of an unknown CSV holds what, as the person chose in the mapping step. Only a title is required.
struct ColumnMapping: Codable, Sendable, Equatable {
    var title: String?
    var author: String?
    var isbn: String?
    var shelf: String?
    var dateRead: String?
    var rating: String?

    /// A first guess from header names, for the mapping form.
    static func guess(headers: [String]) -> ColumnMapping {
        func find(_ words: [String]) -> String? {
            headers.first { header in words.contains { ImportRecord.key(header).contains($0) } }
        }
        return ColumnMapping(
            title: find(["title", "name"]), author: find(["author", "writer"]), isbn: find(["isbn"]),
            shelf: find(["shelf", "status"]), dateRead: find(["date read", "finished", "read on", "date_read"]),
            rating: find(["rating", "stars"]))
    }
}

/// Rows of any CSV, read through a `ColumnMapping`.
struct MappedRows: ImportRowReader {
    let mapping: ColumnMapping

    func read(_ record: ImportRecord) -> ImportRowReading {
        let value = { (column: String?) in column.flatMap { record[$0] } }
        let title: String
        switch self.title(value(mapping.title)) {
        case .success(let found): title = found
        case .failure(let problem): return .problem(problem.message)
        }
        var book = ImportedBook(title: title)
        book.authors = ImportValues.names(value(mapping.author))
        if let problem = book.takeISBN(from: [(column: "ISBN", cell: ImportValues.isbn(value(mapping.isbn)))]) {
            return .problem(problem.message)
        }
        book.rating = ImportValues.rating(value(mapping.rating), notes: &book.notes)
        let finished: String?
        switch ImportedBook.day(value(mapping.dateRead), column: mapping.dateRead ?? "Date read") {
        case .success(let day): finished = day
        case .failure(let problem): return .problem(problem.message)
        }
        if mapping.shelf == nil {
            book.shelf = .known(finished == nil ? .wantToRead : .read)
        } else {
            book.shelf = ImportShelves.exclusive(
                value(mapping.shelf), column: mapping.shelf ?? "Shelf", notes: &book.notes)
        }
        if finished != nil || book.shelf == .known(.read) {
            book.readThroughs = [ReadThrough(startedOn: nil, finishedOn: finished)]
        }
        return checkLengths(book)
    }
}
