/// Puts one language's words into a template's source when the templates are loaded, so rendering a page costs the
/// same in every language. In a template, `{{#t}}Sign in{{/t}}` marks a message (its id: the text between, with runs
/// of white space made one space); the text may hold the page's own tags (`{{#t}}Signed in as {{name}}{{/t}}`),
/// which the translation keeps. `{{@lang}}` is the language's code, for `<html lang>`; `{{@current:es}}` marks the
/// language switch's own button (` aria-current="true"` in Spanish's templates, nothing in the others).
struct TemplateTranslation {
    let language: Language
    let catalogue: MessageCatalogue?
    /// The ids of messages the catalogue lacked (shown in English).
    private(set) var missing: [String] = []

    static let open = "{{#t}}"
    static let close = "{{/t}}"

    struct Unclosed: Error, CustomStringConvertible {
        let message: String
        var description: String { "a {{#t}} without its {{/t}} after “\(message.prefix(60))”" }
    }

    init(language: Language, catalogue: MessageCatalogue?) {
        self.language = language
        self.catalogue = catalogue
    }

    mutating func apply(to source: String) throws -> String {
        var result = ""
        result.reserveCapacity(source.utf8.count)
        var rest = source[...]
        while let start = rest.range(of: Self.open) {
            result += rest[..<start.lowerBound]
            rest = rest[start.upperBound...]
            guard let end = rest.range(of: Self.close) else { throw Unclosed(message: String(rest)) }
            let id = Self.messageID(rest[..<end.lowerBound])
            rest = rest[end.upperBound...]
            if language == .en {
                result += id
            } else if let text = catalogue?.text(id) {
                result += text
            } else {
                missing.append(id)
                result += id
            }
        }
        result += rest
        // Only the layout names its language: the others are not copied seven times more for nothing.
        guard result.contains("{{@") else { return result }
        result = result.replacingOccurrences(of: "{{@lang}}", with: language.rawValue)
        for other in Language.allCases {
            result = result.replacingOccurrences(
                of: "{{@current:\(other.rawValue)}}", with: other == language ? #" aria-current="true""# : "")
        }
        return result
    }

    /// A marked text as its message id: trimmed, each run of white space one space.
    static func messageID(_ text: Substring) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
