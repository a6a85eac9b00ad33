/// How long each part of a book and of a reader's entry may be, whatever it comes from — the add form, the API,
/// an import file, a book provider — defined once.
enum CatalogLimits {
    static let title = 500
    /// An author's or a publisher's name.
    static let name = 300
    static let description = 20_000
    /// A review, and private notes.
    static let review = 20_000

    /// A limit as a page's message writes it, in the request's language: "20,000", "20.000" in German.
    static func shown(_ number: Int) -> String {
        number.formatted(in: Language.current)
    }

    /// A limit as the messages write it: "20,000" (also in what is stored, such as an import's messages).
    static func spelled(_ number: Int) -> String {
        let digits = Array(String(number))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : String(digit)
        }.joined()
    }
}
