import Foundation

/// A book's place in a series: "The Expanse", book 3. Positions are what readers write — 1, 2, 2.5 for a novella
/// between two books, 0 for a prequel — at most 9,999 with up to two decimals; a series may also be named with no
/// position known.
struct SeriesPlace: Codable, Sendable, Equatable {
    let name: String
    let position: Double?

    static let maxNameLength = 200
    static let positions = 0.0...9_999.0

    /// The place, or nil when the name is empty, too long or holds control characters, or the position is out of
    /// bounds (every source is untrusted: a form, a CSV title, a provider).
    init?(name: String, position: Double?) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= Self.maxNameLength, !NewBookForm.hasControlCharacters(name) else {
            return nil
        }
        if let position, !Self.positions.contains(position) || !position.isFinite { return nil }
        self.name = name
        self.position = position
    }

    /// "3", "2.5": as the pages write the position.
    var positionText: String? {
        position.map(Self.spelled)
    }

    /// "Book 3 of The Expanse", or "Part of The Expanse" with no position.
    var phrase: String {
        positionText.map { localized("Book {{number}} of {{series}}", ["number": $0, "series": name]) }
            ?? localized("Part of {{series}}", ["series": name])
    }

    /// "3", "2.5", "2.25": at most two decimals, no trailing zeros.
    static func spelled(_ position: Double) -> String {
        var text = String(format: "%.2f", position)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A typed position: ASCII digits with at most two decimals after one dot, within bounds ("3", "2.5", "0").
    static func parsePosition(_ text: some StringProtocol) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = BoundedNumber.parse(parts[0], in: 0...Int(positions.upperBound)) else {
            return nil
        }
        guard parts.count == 2 else { return Double(whole) }
        let fraction = parts[1]
        guard (1...2).contains(fraction.utf8.count), let hundredths = BoundedNumber.parse(fraction, in: 0...99) else {
            return nil
        }
        let value = Double(whole) + Double(hundredths) / (fraction.utf8.count == 1 ? 10 : 100)
        return positions.contains(value) ? value : nil
    }
}

extension SeriesPlace {
    /// Splits a title as Goodreads writes it, "Leviathan Wakes (The Expanse, #1)", into the title and its series;
    /// nil when the title ends in no such parenthesis. An omnibus' range ("#1-3") keeps its first number.
    static func split(title: String) -> (title: String, series: SeriesPlace)? {
        // Read by Unicode scalars: a ")" followed by a combining mark is not a closing parenthesis here either.
        let scalars = Array(title.unicodeScalars)
        guard scalars.last == ")", let open = scalars.lastIndex(of: "("), open > 0,
            let hash = scalars[open...].lastIndex(of: "#")
        else { return nil }
        var name = String(String.UnicodeScalarView(scalars[(open + 1)..<hash]))
            .trimmingCharacters(in: .whitespaces)
        if name.hasSuffix(",") { name.removeLast() }
        let numberText = String(String.UnicodeScalarView(scalars[(hash + 1)..<(scalars.count - 1)]))
        let first =
            numberText.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? numberText
        let bare = String(String.UnicodeScalarView(scalars[..<open])).trimmingCharacters(in: .whitespaces)
        guard !bare.isEmpty, let position = parsePosition(first.trimmingCharacters(in: .whitespaces)),
            let place = SeriesPlace(name: name, position: position)
        else { return nil }
        return (bare, place)
    }

    /// A series as Open Library's editions write it: "The Expanse ; 3", "Discworld -- 12", "Harry Potter (1)",
    /// "A Song of Ice and Fire, bk. 3", "Culture #2". Only a named series with a number is taken: a series with no
    /// number there is most often the publisher's ("Penguin classics"), not the story's.
    static func fromOpenLibrary(_ text: String) -> SeriesPlace? {
        var scalars = Array(text.unicodeScalars.prefix(maxNameLength + 40))
        func dropTrailing(_ set: Set<Unicode.Scalar>) {
            while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        }
        dropTrailing([" ", ")", "]", "."])
        var digitsStart = scalars.endIndex
        func isNumberPart(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.numericType != nil || scalar == "." }
        while digitsStart > 0, isNumberPart(scalars[digitsStart - 1]) { digitsStart -= 1 }
        while digitsStart < scalars.endIndex, scalars[digitsStart] == "." { digitsStart += 1 }
        guard digitsStart < scalars.endIndex,
            let position = parsePosition(String(String.UnicodeScalarView(scalars[digitsStart...])))
        else { return nil }
        scalars.removeSubrange(digitsStart...)
        var name = String(String.UnicodeScalarView(scalars))
        // The marks and words between a name and its number; a word only where it stands alone ("Milano 3" keeps
        // its "no").
        let marks = ["#", "[", "(", ";", ",", "--", "-", ":"]
        let words = ["no.", "no", "vol.", "vol", "volume", "bk.", "bk", "book", "part", "t."]
        while true {
            name = name.trimmingCharacters(in: .whitespaces)
            let lowered = name.lowercased()
            if let mark = marks.first(where: { lowered.hasSuffix($0) }) {
                name.removeLast(min(mark.count, name.count))
            } else if let word = words.first(where: { word in
                lowered.hasSuffix(word)
                    && lowered.dropLast(word.count).last.map { !$0.isLetter && !$0.isNumber } ?? true
            }) {
                name.removeLast(min(word.count, name.count))
            } else {
                break
            }
        }
        return SeriesPlace(name: name, position: position)
    }

    /// The title as Goodreads writes it, with the series after it ("Leviathan Wakes (The Expanse, #1)"), for exports.
    func goodreadsTitle(_ title: String) -> String {
        "\(title) (\(name)\(positionText.map { ", #\($0)" } ?? ""))"
    }
}
