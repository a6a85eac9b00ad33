import Foundation

/// The Openreads app's CSV: `status` finished/in_progress/planned/abandoned, readings as
/// `start|finish|time` separated by `;`, tags separated by `|||||`, timestamps for dates.
struct OpenreadsRows: ImportRowReader {
    func read(_ record: ImportRecord) -> ImportRowReading {
        if ImportValues.yesNo(record["deleted"]) == true {
            return .skipped("Deleted in Openreads.")
        }
        let title: String
        switch self.title(record["title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var book = ImportedBook(title: title)
        // One author as typed ("Smith, Mark" is one person here, not two).
        book.authors = [ImportValues.line(record["author"])].compactMap { $0 }
        if let problem = book.takeISBN(from: [(column: "isbn", cell: ImportValues.isbn(record["isbn"]))]) {
            return .problem(problem.message)
        }
        if let olid = ImportValues.cell(record["olid"]), olid.count <= 20, olid.hasPrefix("OL"),
            olid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        {
            book.externalIDs["openlibrary"] = olid
        }
        switch ImportValues.cell(record["status"])?.lowercased() {
        case "finished": book.shelf = .known(.read)
        case "in_progress": book.shelf = .known(.reading)
        case "planned", nil: book.shelf = .known(.wantToRead)
        case let other?: book.shelf = .custom(String(other.prefix(100)))
        }
        book.favourite = ImportValues.yesNo(record["favourite"]) ?? false
        book.rating = ImportValues.rating(record["rating"], notes: &book.notes)
        book.pageCount = ImportValues.pageCount(record["pages"], notes: &book.notes)
        book.publishedDate = ImportValues.year(record["publication_year"])
        book.description = ImportValues.paragraphs(record["description"])
        book.review = ImportValues.paragraphs(record["my_review"])
        book.privateNotes = ImportValues.paragraphs(record["notes"])
        book.format = ImportValues.line(record["book_format"]).map { String($0.prefix(60)) }
        book.takeAddedOn(record["date_added"], column: "date_added")
        let tags = (ImportValues.cell(record["tags"]) ?? "").components(separatedBy: "|||||")
            .compactMap { ImportValues.line($0) }.filter { !$0.allSatisfy(\.isASCIIDigit) }
        ImportShelves.apply(tags: tags, exclusive: book.shelf, to: &book)
        for reading in (ImportValues.cell(record["readings"]) ?? "").split(separator: ";") {
            let parts = reading.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard case .success(let start) = ImportedBook.day(parts.first, column: "readings"),
                case .success(let finish) = ImportedBook.day(parts.count > 1 ? parts[1] : nil, column: "readings")
            else { return .problem("The reading \(reading.prefix(60)) has a date Shelfed cannot read.") }
            if start != nil || finish != nil {
                book.readThroughs.append(ReadThrough(startedOn: start, finishedOn: finish))
            }
        }
        if book.readThroughs.isEmpty, book.shelf == .known(.read) { book.readThroughs = [ReadThrough()] }
        return checkLengths(book)
    }
}
