import Foundation

/// Turns a provider's HTML description into plain text: paragraphs and line breaks become newlines,
/// every other tag is dropped, entities are decoded. Pages escape the result, so no markup ever runs.
enum DescriptionText {
    static func plain(_ html: String) -> String {
        var text = ""
        var index = html.startIndex
        // Once no `>` is left, every `<` after is text: looking again for each would take time growing with the
        // square of the length (a summary of 100,000 `<` would hold a core for minutes).
        var closesLeft = true
        while index < html.endIndex {
            let character = html[index]
            let close = character == "<" && closesLeft ? html[index...].firstIndex(of: ">") : nil
            if character == "<", close == nil { closesLeft = false }
            if let close {
                let tag = html[html.index(after: index)..<close].lowercased()
                let name = tag.split(whereSeparator: { $0 == " " || $0 == "/" }).first.map(String.init) ?? ""
                if ["p", "br", "div", "li", "h1", "h2", "h3", "h4", "blockquote"].contains(name) {
                    text += "\n"
                }
                index = html.index(after: close)
                // A script's or a style's text is code, not words to show (a TVmaze summary has carried one).
                if ["script", "style"].contains(name), !tag.hasPrefix("/") {
                    let end = html[index...].range(of: "</" + name, options: .caseInsensitive)
                    index =
                        end.flatMap { html[$0.upperBound...].firstIndex(of: ">") }.map { html.index(after: $0) }
                        ?? html.endIndex
                }
            } else if character == "&", let semicolon = html[index...].prefix(10).firstIndex(of: ";") {
                let entity = String(html[html.index(after: index)..<semicolon])
                if let decoded = decode(entity) {
                    text += decoded
                    index = html.index(after: semicolon)
                } else {
                    text.append(character)
                    index = html.index(after: index)
                }
            } else {
                text.append(character)
                index = html.index(after: index)
            }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.joined(separator: "\n")
    }

    private static func decode(_ entity: String) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default:
            let digits = entity.dropFirst()
            guard entity.hasPrefix("#") else { return nil }
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
