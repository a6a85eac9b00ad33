/// CLDR's plural categories for whole numbers in Shelfed's languages (unicode.org/cldr, "Language Plural Rules"):
/// English, German and Italian say "1 book" and "0 / 2 books"; French and Portuguese treat 0 like 1 ("0 livre");
/// Spanish, French, Italian and Portuguese use "many" for round millions ("1 millón de libros"). Counts here are
/// whole numbers, so the rules' fraction operands never apply.
public enum PluralCategory: String, CaseIterable, Sendable {
    case one, many, other

    public init(_ count: Int, in language: Language) {
        let n = count.magnitude
        let millions = n != 0 && n % 1_000_000 == 0
        switch language {
        case .en, .de:
            self = n == 1 ? .one : .other
        case .it, .es:
            self = n == 1 ? .one : millions ? .many : .other
        case .fr, .pt:
            self = n <= 1 ? .one : millions ? .many : .other
        }
    }

    /// The categories a language's catalogue must give each plural message.
    public static func categories(of language: Language) -> [PluralCategory] {
        switch language {
        case .en, .de: [.one, .other]
        case .es, .fr, .it, .pt: [.one, .many, .other]
        }
    }
}
