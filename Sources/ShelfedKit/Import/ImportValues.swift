import Foundation

/// Reading the cells of export files: every value is untrusted text (DESIGN §13) and may have been through a
/// spreadsheet. Each reader returns a clean value, nothing, or the reason the cell cannot be trusted.
enum ImportValues {

    /// The cell without Goodreads' `="…"` wrapper and surrounding space; nil when empty.
    static func cell(_ raw: String?) -> String? {
        guard var text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        if text.hasPrefix("=\""), text.hasSuffix("\""), text.count >= 3 {
            text = String(text.dropFirst(2).dropLast())
        }
        // The apostrophe an export (Shelfed's own, or a spreadsheet) puts before a formula-like cell is not text.
        if text.hasPrefix("'"), let next = text.dropFirst().first, "=+-@".contains(next) {
            text.removeFirst()
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// One line of text: entities decoded, control characters and runs of spaces collapsed to one space.
    static func line(_ raw: String?) -> String? {
        guard let text = cell(raw) else { return nil }
        var result = ""
        var pendingSpace = false
        for scalar in decodeEntities(text).unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.unicodeScalars.append(" ")
                pendingSpace = false
            }
            result.unicodeScalars.append(scalar)
        }
        return result.isEmpty ? nil : result
    }

    /// Text that may have paragraphs (reviews, notes): HTML line breaks become newlines, tags are dropped,
    /// entities decoded, control characters other than line breaks removed.
    static func paragraphs(_ raw: String?) -> String? {
        guard let text = cell(raw) else { return nil }
        let plain = DescriptionText.plain(text.replacingOccurrences(of: "\r\n", with: "\n"))
        let cleaned = String(
            String.UnicodeScalarView(
                plain.unicodeScalars.filter { $0 == "\n" || $0.properties.generalCategory != .control }))
        return cleaned.isEmpty ? nil : cleaned
    }

    /// Names separated by commas, each cleaned; duplicates (a spreadsheet's `Nicole Falls, Nicole Falls`) once.
    static func names(_ raw: String?) -> [String] {
        guard let text = cell(raw) else { return [] }
        var seen = Set<String>()
        return text.split(separator: ",").compactMap { line(String($0)) }.filter { name in
            seen.insert(name.lowercased()).inserted
        }
    }

    /// "Cortazar, Julio" as "Julio Cortazar"; a name without one comma stays as written.
    static func invertedName(_ raw: String?) -> String? {
        guard let name = line(raw) else { return nil }
        let parts = name.split(separator: ",", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return name }
        return line(parts[1] + " " + parts[0])
    }

    private static func decodeEntities(_ text: String) -> String {
        text.contains("&") ? DescriptionText.plain(text.replacingOccurrences(of: "<", with: "&lt;")) : text
    }
}

// MARK: - ISBNs

extension ImportValues {
    enum ISBNCell: Equatable {
        case empty
        case valid(ISBN)
        /// Digits that are no ISBN (a wrong check digit, an ASIN, a tracker's own id).
        case notISBN(String)
        /// A spreadsheet changed it beyond repair on its own; the message says how. `leadingDigits` are what is left
        /// of an ISBN-13 written in scientific notation (`9.78044E+12` → `978044`), enough to confirm a repair
        /// from another column of the row, never to make one.
        case damaged(String, leadingDigits: String? = nil)
        /// Nine characters that make a valid ISBN-10 with a leading zero: a number column ate the zero.
        case missingLeadingZero(String)
    }

    /// Words of the two messages about an ISBN a spreadsheet damaged, by which the import page counts the rows that
    /// "import without their damaged ISBN" would bring in.
    static let damagedISBNPhrases = ["was turned into a number by a spreadsheet", "lost its leading zero"]

    /// Set while rows are read again to import them without an ISBN a spreadsheet damaged (the one action the
    /// import page offers for them): the damage becomes a note and the ISBN is left out.
    @TaskLocal static var leavesOutDamagedISBNs = false
    static let leftOutISBNNote =
        "Imported without its ISBN, which a spreadsheet had damaged. Add the ISBN on the book's Edit page to get its "
        + "cover and details."

    static func isbn(_ raw: String?) -> ISBNCell {
        guard let text = cell(raw) else { return .empty }
        if text.uppercased().contains("E+") {
            let mantissa = text.uppercased().split(separator: "E")[0]
            let digits = mantissa.filter(\.isASCIIDigit)
            return .damaged(
                "The ISBN \(text.prefix(30)) \(damagedISBNPhrases[0]) and lost its last digits. "
                    + "Type the ISBN from the book, or leave it empty.",
                leadingDigits: digits.count >= 4 && digits.count <= 13 ? String(digits) : nil)
        }
        let compact = text.filter { $0 != "-" && $0 != " " }
        if let isbn = ISBN(compact) { return .valid(isbn) }
        if compact.count == 9, compact.allSatisfy(\.isASCIIDigit) || compact.last == "X",
            ISBN("0" + compact) != nil
        {
            return .missingLeadingZero(compact)
        }
        return .notISBN(String(compact.prefix(40)))
    }
}

// MARK: - Dates

extension ImportValues {
    enum DateCell: Equatable {
        case empty
        case day(String)
        case damaged(String)
    }

    /// `yyyy/mm/dd`, `yyyy-mm-dd`, an ISO timestamp or LibraryThing's `[yyyy-mm-dd]` as `yyyy-mm-dd`.
    static func date(_ raw: String?, column: String) -> DateCell {
        guard var text = cell(raw) else { return .empty }
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if !text.isEmpty, text.allSatisfy({ $0 == "#" }) {
            return .damaged(
                "\(column) shows as \(text.prefix(12)): a spreadsheet hid the date because its column was too narrow. "
                    + "Type the date as yyyy-mm-dd, or leave it empty.")
        }
        let day = String(text.prefix(10)).replacingOccurrences(of: "/", with: "-")
        if day.count == 10, CalendarDate.isValidDay(day),
            text.count == 10 || text.dropFirst(10).first == "T"
                || text.dropFirst(10).first == " "
        {
            return .day(day)
        }
        let parts = text.split(separator: "/")
        if let day = slashDay(parts, column: column) { return .day(day) }
        if parts.count == 3, parts[2].count == 4 {
            // Even when one part is over 12 the file's other dates may be day-first; Shelfed never guesses a date.
            let order =
                (Int(parts[0]) ?? 0) > 12
                ? "it reads as day/month/year"
                : (Int(parts[1]) ?? 0) > 12
                    ? "it reads as month/day/year"
                    : "it could be day/month/year or month/day/year"
            return .damaged(
                "\(column) \(text.prefix(12)) was rewritten by a spreadsheet (\(order)). "
                    + "Type it as yyyy-mm-dd, or leave it empty.")
        }
        return .damaged(
            "\(column) \(text.prefix(30)) is not a date Shelfed can read. Use yyyy-mm-dd, or leave it empty.")
    }
}

// MARK: - Numbers

extension ImportValues {
    /// A rating on a 5-star scale in quarter steps; nil for empty or 0 ("not rated"). A value off the scale is
    /// reported in `notes` and dropped.
    static func rating(_ raw: String?, notes: inout [String]) -> Double? {
        guard let text = cell(raw) else { return nil }
        guard let value = decimal(text) else {
            notes.append("The rating \(text.prefix(12)) is not a number and was left out.")
            return nil
        }
        if value == 0 { return nil }
        guard value > 0, value <= 5 else {
            notes.append("The rating \(text.prefix(12)) is not between 0.25 and 5 and was left out.")
            return nil
        }
        let quarters = (value * 4).rounded()
        return max(1, quarters) / 4
    }

    /// A plain decimal of ASCII digits with at most one point; nothing else (no exponents, signs or locale).
    static func decimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.count <= 6 }),
            !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return Double(text)
    }

    /// A page count within Shelfed's bounds; nil (with a note) otherwise.
    static func pageCount(_ raw: String?, notes: inout [String]) -> Int? {
        guard let text = cell(raw) else { return nil }
        let digits = text.hasSuffix(" p.") ? String(text.dropLast(3)) : text
        guard let pages = BoundedNumber.parse(digits, in: BoundedNumber.pageCount) else {
            notes.append("The page count \(text.prefix(24)) was left out: Shelfed takes 1 to 100,000.")
            return nil
        }
        return pages
    }

    /// A publication year as Shelfed's published date (`yyyy`); years before 1 (Caesar's `-50`) are dropped.
    static func year(_ raw: String?) -> String? {
        guard let text = cell(raw), text.count == 4, BoundedNumber.parse(text, in: BoundedNumber.year) != nil
        else { return nil }
        return text
    }

    static func yesNo(_ raw: String?) -> Bool? {
        switch cell(raw)?.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }
}
