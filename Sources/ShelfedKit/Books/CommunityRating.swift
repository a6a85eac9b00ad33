import Foundation

/// What readers elsewhere think of a book: Goodreads' "Average Rating" from an export, or Google Books'
/// `averageRating` and `ratingsCount` (issue 36: the export's column was read and thrown away). Shown on the book
/// page under the title, always saying where it comes from; never mixed with the household's own ratings.
struct CommunityRating: Codable, Sendable, Equatable {
    /// 0 to 5 stars.
    let average: Double
    /// How many ratings it is the average of, when the source says.
    let count: Int?
    /// "Goodreads", "Google Books".
    let source: String

    /// nil for an average outside 0–5 or not a number (a provider's or a file's nonsense), and for 0: Goodreads
    /// writes 0.00 for a book nobody rated.
    init?(average: Double?, count: Int?, source: String) {
        guard let average, average.isFinite, average > 0, average <= 5 else { return nil }
        self.average = (average * 100).rounded() / 100
        self.count = count.flatMap { (1...1_000_000_000).contains($0) ? $0 : nil }
        self.source = source
    }

    /// From a Goodreads export's "Average Rating" cell ("4.03", sometimes `="4.03"`).
    init?(goodreadsCell cell: String?) {
        guard let text = ImportValues.cell(cell), text.count <= 10 else { return nil }
        self.init(average: Double(text), count: nil, source: "Goodreads")
    }

    /// "4.03 on Goodreads", "4.1 from 1,234 ratings on Google Books", in the request's language.
    var text: String {
        let average = self.average.formatted(
            .number.precision(.fractionLength(0...2)).locale(Language.current.locale))
        guard let count else { return localized("{{average}} on {{source}}", ["average": average, "source": source]) }
        return localized(
            one: "{{average}} from {{count}} rating on {{source}}",
            other: "{{average}} from {{count}} ratings on {{source}}", count: count,
            ["average": average, "source": source])
    }
}
