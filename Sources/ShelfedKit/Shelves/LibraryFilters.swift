import Foundation
import GRDB

/// What a shelf view is narrowed to — author, category, years published, language, format, owned, rating at least,
/// favourite, kind (books, films or shows) — as plain GET parameters (`?category=Fantasy&year_from=1990&rating=4`). Every value is bounded
/// (DESIGN §13): a value that is too long, not a number or out of range is ignored, never trusted.
struct LibraryFilters: Sendable, Equatable {
    var author: String?
    var category: String?
    var yearFrom: Int?
    var yearTo: Int?
    var language: String?
    var format: String?
    var owned: Bool?
    var minRating: Double?
    var favourite = false
    /// Only books, only films or only shows.
    var kind: TitleKind?
    /// Films and shows watched with someone in the house (`WatchedTogetherStore`), or only alone.
    var together: Bool?
    /// What the address asked for but could not be used (too long, not a number, out of range), by the form's
    /// labels, so the page can say it was left out instead of quietly showing everything.
    var leftOut: [String] = []

    static let maxTextLength = 200

    init() {}

    init(query: FormFields) {
        author = Self.text(query["author"])
        category = Self.text(query["category"])
        yearFrom = query["year_from"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.year) }
        yearTo = query["year_to"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.year) }
        // "From 2000 up to 1900" means the years between.
        if let from = yearFrom, let to = yearTo, from > to { (yearFrom, yearTo) = (to, from) }
        language = Self.text(query["language"]).flatMap { $0.count <= 20 ? $0 : nil }
        format = Self.text(query["format"])
        owned = query["owned"].flatMap { $0 == "1" ? true : $0 == "0" ? false : nil }
        minRating = query["rating"].flatMap(Self.rating)
        favourite = query["favourite"] == "1"
        kind = query["kind"].flatMap(TitleKind.init(rawValue:))
        together = query["together"].flatMap { $0 == "1" ? true : $0 == "0" ? false : nil }
        let given: [(String, Bool)] = [
            ("author", author != nil), ("category", category != nil), ("year_from", yearFrom != nil),
            ("year_to", yearTo != nil), ("language", language != nil), ("format", format != nil),
            ("owned", owned != nil), ("rating", minRating != nil), ("favourite", favourite), ("kind", kind != nil),
            ("together", together != nil),
        ]
        for (key, used) in given where !used {
            if let text = query[key], !text.trimmingCharacters(in: .whitespaces).isEmpty {
                leftOut.append(Self.label(of: key))
            }
        }
    }

    /// A parameter as the page names it when it had to be left out.
    private static func label(of key: String) -> String {
        switch key {
        case "author": localized("author")
        case "category": localized("genre")
        case "year_from": localized("published from")
        case "year_to": localized("published up to")
        case "language": localized("language")
        case "format": localized("format")
        case "owned": localized("owned")
        case "rating": localized("rated at least")
        case "favourite": localized("favourites only")
        case "kind": localized("kind")
        default: localized("watched together")
        }
    }

    /// No filter in use (what was left out does not count).
    var isEmpty: Bool {
        var used = self
        used.leftOut = []
        return used == LibraryFilters()
    }

    /// A rating bound as the star input writes it: 0.25 to 5 in quarter steps.
    static func rating(_ text: String) -> Double? {
        guard let value = BoundedNumber.decimal(text, maxLength: 4, in: 0...5), EntryChange.isValidRating(value)
        else { return nil }
        return value
    }

    private static func text(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty,
            value.count <= maxTextLength, !NewBookForm.hasControlCharacters(value)
        else { return nil }
        return value
    }

    /// The rows a narrowed list reads: with a genre, from that genre's books (an index) to the person's entries for
    /// them, so a genre of 500 books in a library of 5,000 reads 500 rows, not 5,000; otherwise the person's entries.
    var sqlSource: String {
        category == nil
            ? "user_book JOIN book ON book.id = user_book.book_id"
            : """
            book_category CROSS JOIN user_book ON user_book.book_id = book_category.book_id \
            JOIN book ON book.id = user_book.book_id
            """
    }

    /// A book's year of publication as the filters read it: the leading four characters of its date, as a number
    /// (a date that is not one counts as 0, which no range holds). `book_category.published_year` holds the same.
    static let publishedYear = "CAST(substr(book.published_date, 1, 4) AS INTEGER)"

    /// The extra `AND …` over `sqlSource()`, with its arguments (after the source's).
    func sqlCondition() -> (String, StatementArguments) {
        var sql = ""
        var arguments: StatementArguments = []
        if let author {
            // The person's own books' author names, not every author in the household's catalog.
            sql += " AND book.author_names LIKE ? ESCAPE '\\'"
            _ = arguments.append(contentsOf: ["%" + Self.likeEscaped(author) + "%"])
        }
        if let category {
            sql += " AND book_category.name = ?"
            _ = arguments.append(contentsOf: [category])
        }
        if yearFrom != nil || yearTo != nil {
            // With a genre, the year its rows carry (kept by triggers, migration v30): the range is then read from
            // the genre's index instead of testing every book of the genre.
            let year = category == nil ? Self.publishedYear : "book_category.published_year"
            sql += " AND \(year) BETWEEN ? AND ?"
            _ = arguments.append(contentsOf: [yearFrom ?? 1, yearTo ?? 9_999])
        }
        if let language {
            sql += " AND book.language = ? COLLATE NOCASE"
            _ = arguments.append(contentsOf: [language])
        }
        if let format {
            sql += " AND user_book.format = ? COLLATE NOCASE"
            _ = arguments.append(contentsOf: [format])
        }
        if let owned {
            sql += owned ? " AND user_book.owned = 1" : " AND (user_book.owned IS NULL OR user_book.owned = 0)"
        }
        if let minRating {
            sql += " AND user_book.rating >= ?"
            _ = arguments.append(contentsOf: [minRating])
        }
        if favourite { sql += " AND user_book.favourite = 1" }
        if let kind {
            sql += " AND book.kind = ?"
            _ = arguments.append(contentsOf: [kind.rawValue])
        }
        if let together {
            // Told someone, or said yes to someone who told them; "only me" is a film or show with neither.
            sql += together ? " AND " : " AND book.kind != 'book' AND NOT "
            sql += """
                (EXISTS (SELECT 1 FROM watched_together WHERE watched_together.from_user = user_book.user_id
                    AND watched_together.book_id = user_book.book_id)
                 OR EXISTS (SELECT 1 FROM watched_together WHERE watched_together.recipient_book_id = user_book.book_id
                    AND watched_together.to_user = user_book.user_id AND watched_together.answer = 'yes'))
                """
        }
        return (sql, arguments)
    }

    private static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// The parameters as links carry them, in a stable order.
    var query: [String: String] {
        var query: [String: String] = [:]
        query["author"] = author
        query["category"] = category
        query["year_from"] = yearFrom.map(String.init)
        query["year_to"] = yearTo.map(String.init)
        query["language"] = language
        query["format"] = format
        query["owned"] = owned.map { $0 ? "1" : "0" }
        query["rating"] = minRating.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }
        query["favourite"] = favourite ? "1" : nil
        query["kind"] = kind?.rawValue
        query["together"] = together.map { $0 ? "1" : "0" }
        return query
    }

    /// Each active filter as a person reads it, with the parameter that removes it.
    var descriptions: [(label: String, keys: [String])] {
        var found: [(String, [String])] = []
        if let author { found.append((localized("Author: {{author}}", ["author": author]), ["author"])) }
        if let category { found.append((localized("Genre: {{genre}}", ["genre": category]), ["category"])) }
        switch (yearFrom.map(String.init), yearTo.map(String.init)) {
        case (let from?, let to?):
            found.append((localized("Published {{from}}–{{to}}", ["from": from, "to": to]), ["year_from", "year_to"]))
        case (let from?, nil): found.append((localized("Published from {{year}}", ["year": from]), ["year_from"]))
        case (nil, let to?): found.append((localized("Published up to {{year}}", ["year": to]), ["year_to"]))
        case (nil, nil): break
        }
        if let language { found.append((localized("Language: {{language}}", ["language": language]), ["language"])) }
        if let format { found.append((localized("Format: {{format}}", ["format": format]), ["format"])) }
        if let owned { found.append((owned ? localized("Owned") : localized("Not owned"), ["owned"])) }
        if let minRating {
            found.append(
                (localized("Rated {{stars}} or more", ["stars": BookPage.starsLabel(minRating)]), ["rating"]))
        }
        if favourite { found.append((localized("Favourites"), ["favourite"])) }
        if let kind {
            let only =
                switch kind {
                case .book: localized("Books only")
                case .movie: localized("Films only")
                case .show: localized("TV shows only")
                }
            found.append((only, ["kind"]))
        }
        if let together {
            found.append((together ? localized("Watched together") : localized("Watched only by me"), ["together"]))
        }
        return found
    }
}
