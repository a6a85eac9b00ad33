/// Numbers from untrusted text, parsed only within bounds (DESIGN §13).
///
/// Swift's `Int("…")` accepts a sign and any length, and every later `+` or `*` on a huge value traps, which ends
/// the whole server. Here only ASCII digits count — no sign, no spaces, no other scripts' digits — and a value
/// outside the bounds is refused before it is ever used in arithmetic.
enum BoundedNumber {
    /// The bounds Shelfed applies wherever such a number enters.
    static let listPage = 1...10_000
    /// A book's place on a list (a list holds at most a library's books).
    static let listPlace = 1...1_000_000
    static let searchStart = 0...1_000
    static let searchLimit = 1...40
    static let pageCount = 1...100_000
    /// A film's or episode's minutes; the schema's check (`migrateToTitleKinds`) allows the same.
    static let runtimeMinutes = 1...60_000
    static let year = 1...9_999
    static let readingGoal = 0...1_000

    /// `text` as an integer within `range`, or nil.
    static func parse(_ text: some StringProtocol, in range: ClosedRange<Int>) -> Int? {
        let digits = text.utf8
        // 18 digits always fit in an Int, and no bound Shelfed uses is longer.
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return range.contains(value) ? value : nil
    }

    /// `text` as a decimal within `range`: ASCII digits and at most one point ("45", "45.5", ".5"), at most
    /// `maxLength` bytes — no sign, no exponent ("1e2"), no "inf" or "nan" that `Double("…")` would take.
    static func decimal(_ text: some StringProtocol, maxLength: Int, in range: ClosedRange<Double>) -> Double? {
        let bytes = text.utf8
        guard bytes.count <= maxLength,
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") }),
            let value = Double(String(text)), range.contains(value)
        else { return nil }
        return value
    }

    /// A database id from a path: ASCII digits only, positive.
    static func id(_ text: (some StringProtocol)?) -> Int64? {
        guard let text, let value = parse(text, in: 1...Int.max) else { return nil }
        return Int64(value)
    }

    /// A count from a provider (pages, say) kept only when it is plausible; anything else is unknown.
    static func plausible(_ value: Int?, in range: ClosedRange<Int>) -> Int? {
        guard let value, range.contains(value) else { return nil }
        return value
    }
}

extension UInt8 {
    var isASCIIDigit: Bool { (48...57).contains(self) }

    /// An ASCII letter or digit.
    var isASCIIAlphanumeric: Bool {
        (48...57).contains(self) || (65...90).contains(self) || (97...122).contains(self)
    }
}
