import Foundation

/// StoryGraph's export (the 2021 and current headers). Several authors share one field; `ISBN/UID` may hold an
/// ASIN or StoryGraph's own id; `Dates Read` lists reads as `start-finish` ranges; ratings are quarter stars.
struct StoryGraphRows: ImportRowReader {
    func read(_ record: ImportRecord) -> ImportRowReading {
        let title: String
        switch self.title(record["Title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var book = ImportedBook(title: title)
        book.authors = ImportValues.names(record["Authors"])
        switch ImportValues.isbn(record["ISBN/UID"]) {
        case .empty: break
        case .valid(let isbn):
            book.isbn13 = isbn.isbn13
            book.isbn10 = isbn.isbn10
        case .notISBN(let id):
            // Not an ISBN: an Amazon id or StoryGraph's own; kept for matching, never shown as an ISBN.
            let isASIN =
                id.count == 10 && id.hasPrefix("B") && id.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
            book.externalIDs[isASIN ? "asin" : "storygraph"] = id
        case .missingLeadingZero(let digits):
            // StoryGraph's own exports write some ISBN-10s as numbers; kept as its id, never guessed into an ISBN.
            book.externalIDs["storygraph"] = digits
            book.notes.append(
                "ISBN/UID \(digits) may be the ISBN 0\(digits) without its leading zero; it was kept as an id.")
        case .damaged(let message, _):
            // StoryGraph writes one id column, so nothing in the row can confirm a repair.
            guard ImportValues.leavesOutDamagedISBNs else { return .problem(message) }
            book.notes.append(ImportValues.leftOutISBNNote)
        }
        book.format = ImportValues.line(record["Format"]).map { String($0.prefix(60)) }
        book.shelf = ImportShelves.exclusive(record["Read Status"], column: "Read Status", notes: &book.notes)
        book.takeAddedOn(record["Date Added"], column: "Date Added")
        switch Self.reads(record["Dates Read"], last: record["Last Date Read"]) {
        case .failure(let problem): return .problem(problem.message)
        case .success(let reads): book.readThroughs = reads
        }
        if book.readThroughs.isEmpty, book.shelf == .known(.read) {
            book.readThroughs = [ReadThrough()]
        }
        book.rating = ImportValues.rating(record["Star Rating"], notes: &book.notes)
        book.review = ImportValues.paragraphs(record["Review"])
        let tags = ImportValues.names(record["Tags"])
        book.shelf = ImportShelves.didNotFinishByTag(tags, exclusive: book.shelf)
        ImportShelves.apply(tags: tags, exclusive: book.shelf, to: &book)
        book.owned = ImportValues.yesNo(record["Owned?"])
        return checkLengths(book)
    }

    /// `2023/05/23-2023/06/07, 2024/01/02-` → reads, oldest first; without ranges, `Last Date Read` alone.
    static func reads(_ datesRead: String?, last: String?) -> Result<[ReadThrough], ImportProblem> {
        guard let text = ImportValues.cell(datesRead) else {
            return ImportedBook.day(last, column: "Last Date Read").map { day in
                day.map { [ReadThrough(startedOn: nil, finishedOn: $0)] } ?? []
            }
        }
        var reads: [ReadThrough] = []
        for range in text.split(separator: ",") {
            let range = range.trimmingCharacters(in: .whitespaces)
            // StoryGraph writes yyyy/mm/dd, so a hyphen separates start and finish; a lone yyyy-mm-dd is one day.
            let ends =
                range.contains("/") || range.count != 10
                ? range.split(separator: "-", omittingEmptySubsequences: false).map(String.init) : [range]
            let read: ReadThrough
            switch ends.count {
            case 1:
                guard case .success(let day) = ImportedBook.day(ends[0], column: "Dates Read") else {
                    return .failure(ImportProblem("Dates Read \(range.prefix(30)) is not a date or a range of dates."))
                }
                read = ReadThrough(startedOn: nil, finishedOn: day)
            case 2:
                guard case .success(let start) = ImportedBook.day(ends[0], column: "Dates Read"),
                    case .success(let finish) = ImportedBook.day(ends[1], column: "Dates Read")
                else {
                    return .failure(ImportProblem("Dates Read \(range.prefix(30)) is not a date or a range of dates."))
                }
                read = ReadThrough(startedOn: start, finishedOn: finish)
            default:
                return .failure(ImportProblem("Dates Read \(range.prefix(30)) is not a date or a range of dates."))
            }
            if read.startedOn != nil || read.finishedOn != nil { reads.append(read) }
        }
        return .success(reads.sorted { ($0.finishedOn ?? $0.startedOn ?? "") < ($1.finishedOn ?? $1.startedOn ?? "") })
    }
}
