import Foundation

/// Shelf and list names as the trackers write them.
enum ImportShelves {
    /// Shelfed's shelf for a tracker's standard exclusive shelf name, nil for a custom one. The names people give
    /// these shelves in the other five languages count too (a Goodreads shelf "leídos", a StoryGraph tag
    /// "abandonados"), with or without accents.
    static func shelf(named name: String) -> Shelf? {
        let key = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
        return standardNames[key]
    }

    private static let standardNames: [String: Shelf] = {
        let names: [Shelf: [String]] = [
            .read: [
                "read", "finished", "leido", "leidos", "leidas", "gelesen", "lu", "lus", "letto", "letti", "lido",
                "lidos",
            ],
            .reading: [
                "currently-reading", "reading", "in-progress", "leyendo", "lese-gerade", "lese-ich", "en-cours",
                "en-cours-de-lecture", "sto-leggendo", "in-lettura", "lendo",
            ],
            .wantToRead: [
                "to-read", "want-to-read", "planned", "wishlist", "quiero-leer", "por-leer", "pendientes",
                "will-ich-lesen", "zu-lesen", "a-lire", "pal", "da-leggere", "voglio-leggere", "quero-ler", "para-ler",
            ],
            .didNotFinish: [
                "did-not-finish", "dnf", "abandoned", "unfinished", "abandonados", "abandonado", "abandonadas",
                "sin-terminar", "abgebrochen", "nicht-beendet", "abandonne", "abandonnes", "abbandonati",
                "abbandonato", "nao-terminados",
            ],
        ]
        return Dictionary(uniqueKeysWithValues: names.flatMap { shelf, keys in keys.map { ($0, shelf) } })
    }()

    /// A tag naming Did not finish (StoryGraph keeps the Goodreads shelves it imported as tags) puts a row that
    /// was only wanted there: a book someone set aside is not one they still want to read.
    static func didNotFinishByTag(_ tags: [String], exclusive: ImportedShelf) -> ImportedShelf {
        guard exclusive == .known(.wantToRead), tags.contains(where: { shelf(named: $0) == .didNotFinish }) else {
            return exclusive
        }
        return .known(.didNotFinish)
    }

    static func isFavourites(_ name: String) -> Bool {
        ["favorites", "favourites", "favorite", "favourite"].contains(name.lowercased())
    }

    /// The exclusive shelf a row names: a standard one, a custom one to map in the preview, or Want to read
    /// with a note when the cell is empty.
    static func exclusive(_ raw: String?, column: String, notes: inout [String]) -> ImportedShelf {
        guard let name = ImportValues.line(raw) else {
            notes.append("\(column) was empty: put on Want to read.")
            return .known(.wantToRead)
        }
        if let shelf = shelf(named: name) { return .known(shelf) }
        return .custom(String(name.prefix(100)))
    }

    /// Lists from non-exclusive shelves or tags, without the standard shelves and the exclusive one; a
    /// favourites shelf sets `favourite` instead of making a list.
    static func apply(tags: [String], exclusive: ImportedShelf, to book: inout ImportedBook) {
        var seen = Set(book.lists.map { $0.lowercased() })
        for tag in tags {
            let name = String(tag.prefix(100))
            if isFavourites(name) {
                book.favourite = true
                continue
            }
            if shelf(named: name) != nil || exclusive == .custom(name) { continue }
            if seen.insert(name.lowercased()).inserted { book.lists.append(name) }
        }
    }
}

extension ImportedBook {
    /// Takes the first valid ISBN among `cells`; a damaged cell with no valid one beside it fails the row, a
    /// wrong check digit is noted and left out.
    mutating func takeISBN(from cells: [(column: String, cell: ImportValues.ISBNCell)]) -> ImportProblem? {
        var damage: String?
        for (_, cell) in cells {
            if case .valid(let isbn) = cell, isbn13 == nil {
                isbn13 = isbn.isbn13
                isbn10 = isbn.isbn10
            }
        }
        if isbn13 == nil, let (column, repaired) = Self.repairedFromTheOtherColumn(cells) {
            isbn13 = repaired.isbn13
            isbn10 = repaired.isbn10
            notes.append(
                "\(column) had lost its leading zero; \(repaired.isbn10 ?? repaired.isbn13) agrees with the ISBN-13 "
                    + "the spreadsheet left beside it, so it was put back.")
            return nil
        }
        for (column, cell) in cells {
            switch cell {
            case .damaged(let message, _):
                if isbn13 == nil {
                    damage = damage ?? message
                } else {
                    notes.append("\(column) was damaged by a spreadsheet; the valid ISBN beside it was kept.")
                }
            case .missingLeadingZero(let digits):
                let message =
                    "\(column) \(digits) \(ImportValues.damagedISBNPhrases[1]) (it was probably 0\(digits)). "
                    + "Check it on the book and type it again."
                if isbn13 == nil { damage = damage ?? message } else { notes.append(message) }
            case .notISBN(let text):
                notes.append("\(column) \(text) is not a valid ISBN (wrong check digit or length) and was left out.")
            case .empty, .valid:
                break
            }
        }
        if damage != nil, ImportValues.leavesOutDamagedISBNs {
            notes.append(ImportValues.leftOutISBNNote)
            return nil
        }
        return damage.map(ImportProblem.init)
    }

    /// An ISBN-10 whose leading zero a spreadsheet ate, put back when the ISBN-13 column of the same row (itself in
    /// scientific notation) begins with the same digits: two damaged cells that agree, never one guessed.
    static func repairedFromTheOtherColumn(
        _ cells: [(column: String, cell: ImportValues.ISBNCell)]
    ) -> (column: String, isbn: ISBN)? {
        for (column, cell) in cells {
            guard case .missingLeadingZero(let digits) = cell, let candidate = ISBN("0" + digits) else { continue }
            let confirmed = cells.contains { other in
                guard case .damaged(_, let leading?) = other.cell, leading.count >= 6 else { return false }
                return candidate.isbn13.hasPrefix(leading)
                    || Self.roundsTo(candidate.isbn13, leading)
            }
            if confirmed { return (column, candidate) }
        }
        return nil
    }

    /// Whether the 13 digits, rounded to as many digits as `leading` has, are `leading` (a spreadsheet rounds the
    /// last digit it shows: 9780441172719 shows as 9.78044E+12).
    private static func roundsTo(_ digits: String, _ leading: String) -> Bool {
        guard let whole = Int(digits), let shown = Int(leading), leading.count < digits.count else { return false }
        var scale = 1
        for _ in 0..<(digits.count - leading.count) { scale *= 10 }
        return (whole + scale / 2) / scale == shown
    }

    /// Reading dates: the row fails when a spreadsheet damaged one (the date would be lost otherwise).
    static func day(_ raw: String?, column: String) -> Result<String?, ImportProblem> {
        switch ImportValues.date(raw, column: column) {
        case .empty: .success(nil)
        case .day(let day): .success(day)
        case .damaged(let message): .failure(ImportProblem(message))
        }
    }

    /// The date added: damage is noted and the date left unknown, since no reading history depends on it.
    mutating func takeAddedOn(_ raw: String?, column: String) {
        switch ImportValues.date(raw, column: column) {
        case .empty: break
        case .day(let day): addedOn = day
        case .damaged(let message): notes.append(message)
        }
    }
}
