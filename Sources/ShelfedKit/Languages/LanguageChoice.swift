/// One option of the language setting (issue 39): each language by its own name, marked with its own `lang` so a
/// screen reader says "Deutsch" as German, and first "as your browser asks".
struct LanguageChoice: Sendable {
    let value: String
    let name: String
    /// The option's own language, for its `lang` attribute; nil for the browser's choice.
    let lang: String?
    let selected: Bool

    static func all(chosen: Language?) -> [LanguageChoice] {
        [LanguageChoice(value: "", name: localized("As your browser asks"), lang: nil, selected: chosen == nil)]
            + Language.allCases.map { language in
                LanguageChoice(
                    value: language.rawValue, name: language.nativeName, lang: language.rawValue,
                    selected: chosen == language)
            }
    }
}
