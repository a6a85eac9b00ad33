import Foundation

extension Int {
    /// "12,345" in English, "12.345" in German and Spanish, "12 345" in French: a count as a page in the request's
    /// language shows it, grouped by CLDR's rules whatever the server's own locale (a service often runs with none,
    /// where `formatted()` would print "12345").
    var grouped: String { formatted(in: Language.current) }

    /// `grouped` in `language`.
    func formatted(in language: Language) -> String {
        // Below a thousand no language groups digits: no formatter for most counts.
        if (-999...999).contains(self) { return String(self) }
        return formatted(.number.grouping(.automatic).locale(language.locale))
    }
}
