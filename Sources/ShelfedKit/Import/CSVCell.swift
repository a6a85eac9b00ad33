/// Writing CSV that spreadsheets open safely.
enum CSVCell {
    /// One cell, quoted when it holds a comma, quote or line break. A cell a spreadsheet would run as a formula
    /// (starting with `=`, `+`, `-`, `@`, or a tab or carriage return that hides one) gets a leading apostrophe,
    /// the OWASP advice, so it opens as text.
    static func escape(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The deliberate `="…"` form Goodreads uses so a spreadsheet keeps an ISBN's leading zero; only digits and
    /// X go inside, so it can never carry a formula.
    static func isbn(_ isbn: String?) -> String {
        let digits = (isbn ?? "").filter { $0.isASCII && ($0.isNumber || $0 == "X") }
        return "\"=\"\"\(digits)\"\"\""
    }

    static func line(_ cells: [String]) -> String {
        cells.map(escape).joined(separator: ",") + "\r\n"
    }
}
