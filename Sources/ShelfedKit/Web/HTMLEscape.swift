extension String {
    /// The text made safe to place in HTML content or a double-quoted attribute.
    var htmlEscaped: String {
        guard contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" || $0 == "'" }) else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 16)
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
