/// A checksum-valid ISBN, kept as its ISBN-13 with the ISBN-10 form when one exists (978 prefix).
public struct ISBN: Sendable, Equatable {
    public let isbn13: String
    public let isbn10: String?

    /// Accepts ISBN-10 or ISBN-13 with hyphens or spaces; nil when the length or checksum is wrong.
    public init?(_ text: String) {
        let compact = text.uppercased().filter { $0 != "-" && $0 != " " }
        switch compact.count {
        case 10:
            guard Self.isValidISBN10(compact) else { return nil }
            isbn10 = compact
            isbn13 = Self.isbn13(fromISBN10: compact)
        case 13:
            guard compact.allSatisfy(\.isWholeNumber), Self.isbn13CheckDigit(compact.prefix(12)) == compact.last
            else { return nil }
            isbn13 = compact
            isbn10 = compact.hasPrefix("978") ? Self.isbn10(fromISBN13: compact) : nil
        default:
            return nil
        }
    }

    static func isValidISBN10(_ isbn: String) -> Bool {
        let characters = Array(isbn)
        guard characters.prefix(9).allSatisfy(\.isWholeNumber),
            characters[9].isWholeNumber || characters[9] == "X"
        else { return false }
        var sum = 0
        for (index, character) in characters.enumerated() {
            let value = character == "X" ? 10 : character.wholeNumberValue!
            sum += value * (10 - index)
        }
        return sum % 11 == 0
    }

    static func isbn13CheckDigit(_ first12: Substring) -> Character {
        var sum = 0
        for (index, character) in first12.enumerated() {
            sum += character.wholeNumberValue! * (index.isMultiple(of: 2) ? 1 : 3)
        }
        return Character(String((10 - sum % 10) % 10))
    }

    static func isbn13(fromISBN10 isbn10: String) -> String {
        let body = "978" + isbn10.prefix(9)
        return body + String(isbn13CheckDigit(Substring(body)))
    }

    static func isbn10(fromISBN13 isbn13: String) -> String {
        let body = isbn13.dropFirst(3).prefix(9)
        var sum = 0
        for (index, character) in body.enumerated() { sum += character.wholeNumberValue! * (10 - index) }
        let check = (11 - sum % 11) % 11
        return body + (check == 10 ? "X" : String(check))
    }
}
