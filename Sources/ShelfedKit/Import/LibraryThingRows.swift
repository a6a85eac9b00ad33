import Foundation

/// LibraryThing's tab-separated export (Windows-1252 text, names as "Last, First", dates as `[yyyy-mm-dd]`,
/// collections instead of shelves).
struct LibraryThingRows: ImportRowReader {
    func read(_ record: ImportRecord) -> ImportRowReading {
        let title: String
        switch self.title(record["Title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var book = ImportedBook(title: title)
        book.authors =
            [ImportValues.invertedName(record["Primary Author"])].compactMap { $0 }
            + (ImportValues.cell(record["Secondary Author"]) ?? "").split(separator: "|")
            .compactMap { ImportValues.invertedName(String($0)) }
        // `ISBNs` lists every form ("2070291340, 9782070291342"); `ISBN` is one in brackets.
        var cells: [(column: String, cell: ImportValues.ISBNCell)] = []
        for candidate in (ImportValues.cell(record["ISBNs"]) ?? "").split(separator: ",") {
            cells.append((column: "ISBNs", cell: ImportValues.isbn(String(candidate))))
        }
        let bracketed = ImportValues.cell(record["ISBN"])?.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        cells.append((column: "ISBN", cell: ImportValues.isbn(bracketed)))
        if let problem = book.takeISBN(from: cells.filter { $0.cell != .empty }) { return .problem(problem.message) }
        if let id = ImportValues.cell(record["Book Id"]), id.count <= 20, id.allSatisfy(\.isASCIIDigit) {
            book.externalIDs["librarything"] = id
        }
        book.rating = ImportValues.rating(record["Rating"], notes: &book.notes)
        book.review = ImportValues.paragraphs(record["Review"])
        let notes = [ImportValues.paragraphs(record["Private Comment"]), ImportValues.paragraphs(record["Comment"])]
            .compactMap { $0 }
        book.privateNotes = notes.isEmpty ? nil : notes.joined(separator: "\n")
        book.pageCount = ImportValues.pageCount(record["Page Count"], notes: &book.notes)
        book.format = ImportValues.line(record["Media"]).map { String($0.prefix(60)) }
        // "Gallimard (1979), Poche": the publisher is what comes before the year.
        book.publisher = ImportValues.line(record["Publication"])
            .flatMap { $0.components(separatedBy: " (").first }.map { String($0.prefix(300)) }
        book.publishedDate = ImportValues.year(record["Date"])
        book.takeAddedOn(record["Entry Date"], column: "Entry Date")
        let started: String?
        let finished: String?
        switch (
            ImportedBook.day(record["Date Started"], column: "Date Started"),
            ImportedBook.day(record["Date Read"], column: "Date Read")
        ) {
        case (.success(let start), .success(let finish)):
            started = start
            finished = finish
        case (.failure(let problem), _), (_, .failure(let problem)):
            return .problem(problem.message)
        }
        let collections = (ImportValues.cell(record["Collections"]) ?? "").split(separator: ",")
            .compactMap { ImportValues.line(String($0)) }.map { $0.lowercased() }
        book.owned = collections.contains("your library") ? true : nil
        if collections.contains("currently reading") {
            book.shelf = .known(.reading)
        } else if finished != nil || collections.contains("read but unowned") {
            book.shelf = .known(.read)
        } else if collections.contains("to read") || collections.contains("wishlist") {
            book.shelf = .known(.wantToRead)
        } else {
            book.shelf = .known(.wantToRead)
            book.notes.append("LibraryThing does not say whether you read it: put on Want to read.")
        }
        if started != nil || finished != nil || book.shelf == .known(.read) {
            book.readThroughs = [ReadThrough(startedOn: started, finishedOn: finished)]
        }
        let tags = (ImportValues.cell(record["Tags"]) ?? "").split(separator: ",").compactMap {
            ImportValues.line(String($0))
        }
        ImportShelves.apply(tags: tags, exclusive: book.shelf, to: &book)
        if collections.contains(where: ImportShelves.isFavourites) { book.favourite = true }
        return checkLengths(book)
    }
}
