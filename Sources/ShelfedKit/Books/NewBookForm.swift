import Foundation

/// The manual-add form as typed, and its rules.
struct NewBookForm: Sendable, Decodable {
    var title = ""
    /// Only the edit form has it; the add form leaves it empty.
    var subtitle = ""
    var authors = ""
    var isbn = ""
    var pageCount = ""
    var publishedDate = ""
    var publisher = ""
    var description = ""
    /// The series and the book's place in it; only the edit form has them.
    var series = ""
    var seriesPosition = ""
    var shelf = Shelf.wantToRead.rawValue
    /// `book`, `movie` or `show`; only the add form sends it (a title keeps its kind).
    var kind = TitleKind.book.rawValue
    /// A film's running time in minutes.
    var runtime = ""

    init() {}

    enum CodingKeys: String, CodingKey {
        case title, subtitle, authors, isbn, publisher, description, shelf, series, kind, runtime
        case seriesPosition = "series_position"
        case pageCount = "page_count"
        case publishedDate = "published_date"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        title = try form.trimmed(.title)
        subtitle = try form.optionalTrimmed(.subtitle) ?? ""
        authors = try form.trimmed(.authors)
        isbn = try form.trimmed(.isbn)
        pageCount = try form.trimmed(.pageCount)
        publishedDate = try form.trimmed(.publishedDate)
        publisher = try form.trimmed(.publisher)
        description = try form.trimmed(.description)
        series = try form.optionalTrimmed(.series) ?? ""
        seriesPosition = try form.optionalTrimmed(.seriesPosition) ?? ""
        shelf = try form.optionalTrimmed(.shelf) ?? Shelf.wantToRead.rawValue
        kind = try form.optionalTrimmed(.kind) ?? TitleKind.book.rawValue
        runtime = try form.optionalTrimmed(.runtime) ?? ""
    }

    /// The kind asked for; a book when the field is missing or unknown (`validate` says so for an unknown one).
    var titleKind: TitleKind { TitleKind(rawValue: kind) ?? .book }

    /// The validated book and shelf, or a message per invalid field.
    func validate() -> Result<(NewBook, Shelf), FieldErrors> {
        var errors = FieldErrors()
        let titleKind = TitleKind(rawValue: kind)
        if titleKind == nil { errors["kind"] = localized("Choose a book, a film or a TV show.") }
        // Said for the kind asked for, a book when it is unknown.
        let saidKind = titleKind ?? .book
        if title.isEmpty {
            switch saidKind {
            case .book: errors["title"] = localized("Enter the book's title.")
            case .movie: errors["title"] = localized("Enter the film's title.")
            case .show: errors["title"] = localized("Enter the TV show's title.")
            }
        }
        if title.count > CatalogLimits.title {
            errors["title"] = localized(
                "Keep the title to {{max}} characters or fewer.", ["max": CatalogLimits.shown(CatalogLimits.title)])
        }
        var isbnValue: ISBN?
        if !isbn.isEmpty {
            isbnValue = ISBN(isbn)
            if isbnValue == nil {
                errors["isbn"] = localized(
                    "That is not a valid ISBN-10 or ISBN-13. Check the digits, or leave it empty.")
            }
        }
        var pages: Int?
        if !pageCount.isEmpty {
            pages = BoundedNumber.parse(pageCount, in: BoundedNumber.pageCount)
            if pages == nil {
                errors["page_count"] = localized("Enter the number of pages as a whole number, like 320.")
            }
        }
        if titleKind != .book {
            // A film's or show's form has no such fields; a request that sends them is told, not ignored.
            if !isbn.isEmpty {
                switch saidKind {
                case .book: errors["isbn"] = localized("A book has no ISBN. Leave it empty.")
                case .movie: errors["isbn"] = localized("A film has no ISBN. Leave it empty.")
                case .show: errors["isbn"] = localized("A TV show has no ISBN. Leave it empty.")
                }
            }
            if !pageCount.isEmpty {
                switch saidKind {
                case .book: errors["page_count"] = localized("A book has no pages. Leave it empty.")
                case .movie: errors["page_count"] = localized("A film has no pages. Leave it empty.")
                case .show: errors["page_count"] = localized("A TV show has no pages. Leave it empty.")
                }
            }
        }
        var minutes: Int?
        if !runtime.isEmpty {
            minutes = BoundedNumber.parse(runtime, in: BoundedNumber.runtimeMinutes)
            if titleKind != .movie {
                errors["runtime"] = localized("Only a film has a running time here. Leave it empty.")
            } else if minutes == nil {
                errors["runtime"] = localized("Enter the running time in minutes as a whole number, like 139.")
            }
        }
        if !publishedDate.isEmpty, !CalendarDate.isValidPublishedDate(publishedDate) {
            errors["published_date"] = localized("Use a year (1999), a month (1999-04) or a full date (1999-04-30).")
        }
        if description.count > CatalogLimits.description {
            errors["description"] = localized(
                "Keep the description to {{max}} characters.", ["max": CatalogLimits.shown(CatalogLimits.description)])
        }
        if subtitle.count > CatalogLimits.title {
            errors["subtitle"] = localized(
                "Keep the subtitle to {{max}} characters or fewer.", ["max": CatalogLimits.shown(CatalogLimits.title)])
        }
        var seriesPlace: SeriesPlace?
        if series.count > SeriesPlace.maxNameLength {
            errors["series"] = localized(
                "Keep the series name to {{max}} characters or fewer.",
                ["max": CatalogLimits.shown(SeriesPlace.maxNameLength)])
        }
        var position: Double?
        if !seriesPosition.isEmpty {
            position = SeriesPlace.parsePosition(seriesPosition)
            if position == nil {
                errors["series_position"] = localized(
                    "Enter the book's number in the series, like 3 or 2.5 (0 to 9,999).")
            } else if series.isEmpty {
                errors["series"] = localized(
                    "Enter the series this is book {{number}} of, or leave the number empty.",
                    ["number": seriesPosition])
            }
        }
        if !series.isEmpty { seriesPlace = SeriesPlace(name: series, position: position) }
        for (field, value) in [
            ("title", title), ("subtitle", subtitle), ("authors", authors), ("publisher", publisher),
            ("series", series),
        ]
        where Self.hasControlCharacters(value) {
            errors[field] = localized("Remove the invisible control characters from this field.")
        }
        if Self.hasControlCharacters(description, allowingLineBreaks: true) {
            errors["description"] = localized("Remove the invisible control characters from the description.")
        }
        guard let chosenShelf = Shelf(rawValue: shelf) else {
            errors["shelf"] =
                saidKind == .book
                ? localized("Choose Want to read, Reading, Read or Did not finish.")
                : localized("Choose Want to watch, Watching, Watched or Stopped watching.")
            return .failure(errors)
        }
        guard errors.isEmpty else { return .failure(errors) }

        var book = NewBook(title: title)
        book.subtitle = subtitle.isEmpty ? nil : subtitle
        book.authors = authors.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        book.isbn = isbnValue
        book.pageCount = pages
        book.publishedDate = publishedDate.isEmpty ? nil : publishedDate
        book.publisher = publisher.isEmpty ? nil : publisher
        book.description = description.isEmpty ? nil : description
        book.series = seriesPlace
        book.source = .manual
        book.kind = titleKind ?? .book
        book.runtimeMinutes = minutes
        return .success((book, chosenShelf))
    }
}

extension NewBookForm {
    /// NUL and other control characters have no place in a title or a name; a description may keep its
    /// line breaks and tabs.
    static func hasControlCharacters(_ text: String, allowingLineBreaks: Bool = false) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control
                && !(allowingLineBreaks && (scalar == "\n" || scalar == "\r" || scalar == "\t"))
        }
    }
}

/// Messages keyed by form field name.
struct FieldErrors: Error, Sendable {
    private(set) var messages: [String: String] = [:]

    subscript(field: String) -> String? {
        get { messages[field] }
        set { messages[field] = newValue }
    }

    var isEmpty: Bool { messages.isEmpty }
}

/// Calendar dates as Shelfed stores them (`yyyy-mm-dd`), checked to be real days.
enum CalendarDate {
    static func isValidDay(_ text: String) -> Bool {
        parseDay(text) != nil
    }

    /// The year, month and day of a `yyyy-mm-dd` date that exists (ASCII digits only), read byte by byte: the
    /// reading journal's statistics read thousands of dates a page.
    static func parseDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let bytes = text.utf8
        guard bytes.count == 10 else { return nil }
        var (year, month, day) = (0, 0, 0)
        for (offset, byte) in bytes.enumerated() {
            if offset == 4 || offset == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            switch offset {
            case 0..<4: year = year * 10 + Int(digit)
            case 5..<7: month = month * 10 + Int(digit)
            default: day = day * 10 + Int(digit)
            }
        }
        guard BoundedNumber.year.contains(year), (1...12).contains(month), day >= 1,
            day <= daysIn(month: month, year: year)
        else { return nil }
        return (year, month, day)
    }

    /// Publishers give a year, a month or a day.
    static func isValidPublishedDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return parts[0].count == 4 && BoundedNumber.parse(parts[0], in: BoundedNumber.year) != nil
        case 2:
            return parts[0].count == 4 && BoundedNumber.parse(parts[0], in: BoundedNumber.year) != nil
                && parts[1].count == 2 && BoundedNumber.parse(parts[1], in: 1...12) != nil
        case 3: return isValidDay(text)
        default: return false
        }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension FieldErrors {
    /// Every message in one sentence-per-field text, fields in name order (for JSON error answers).
    var summary: String {
        messages.sorted { $0.key < $1.key }.map(\.value).joined(separator: " ")
    }
}
