import Foundation

/// The languages Shelfed speaks (issue 39, DESIGN §18). A request's language is decided once, by
/// `LanguageMiddleware`, and carried by the task that answers it (`Language.current`), so a page, its messages and
/// its dates read it without every call passing it along.
public enum Language: String, CaseIterable, Sendable {
    case en, es, de, fr, it, pt

    /// The language of the request being answered (the server's default outside one).
    @TaskLocal public static var current: Language = .en

    /// The name a speaker of the language knows it by, for the switch.
    public var nativeName: String {
        switch self {
        case .en: "English"
        case .es: "Español"
        case .de: "Deutsch"
        case .fr: "Français"
        case .it: "Italiano"
        case .pt: "Português"
        }
    }

    /// Dates, numbers and sorting in the language's own ways (Foundation's, from CLDR's data).
    public var locale: Locale { Self.locales[self] ?? Locale(identifier: "en") }

    private static let locales: [Language: Locale] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, Locale(identifier: $0.rawValue)) })

    /// A tag such as "pt-BR", "es_419" or "DE": its primary language, when Shelfed speaks it.
    public init?(tag: some StringProtocol) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard let language = Language(rawValue: primary) else { return nil }
        self = language
    }

    /// The language a request is answered in: the person's own choice, else the one chosen on a signed-out page
    /// (kept in a cookie), else the browser's best match, else the server's default.
    public static func negotiate(chosen: Language?, cookie: Language?, acceptLanguage: String?, fallback: Language)
        -> Language
    {
        chosen ?? cookie ?? acceptLanguage.flatMap(preferred(acceptLanguage:)) ?? fallback
    }

    /// The browser's most wanted language Shelfed speaks, from an `Accept-Language` header: "de-CH, fr;q=0.9,
    /// en;q=0.8" → German. Entries with equal weight keep the browser's order; `q=0` means "not this one". The
    /// header is hostile input: only its first 1,000 bytes and 40 entries are read, and odd weights count as none.
    public static func preferred(acceptLanguage header: String) -> Language? {
        var best: (language: Language, weight: Double)?
        for entry in header.utf8.prefix(1_000).split(separator: UInt8(ascii: ",")).prefix(40) {
            let parts = entry.split(separator: UInt8(ascii: ";"))
            guard let tagBytes = parts.first,
                let language = Language(
                    tag: String(decoding: tagBytes, as: UTF8.self).trimmingCharacters(in: .whitespaces))
            else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let text = String(decoding: parameter, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("q=") || text.hasPrefix("Q=") else { continue }
                let value = Double(text.dropFirst(2)) ?? 0
                weight = value.isFinite && (0...1).contains(value) ? value : 0
            }
            if weight > 0, weight > (best?.weight ?? 0) { best = (language, weight) }
        }
        return best?.language
    }
}
