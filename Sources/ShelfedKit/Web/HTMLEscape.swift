/// Escapes text for HTML content and quoted attributes, byte by byte over UTF-8.
///
/// Working on bytes (never on `Character`s) is the point: a `"` followed by a combining mark is one `Character`
/// that is not equal to `"`, so a Character loop lets the quote through and ends the attribute (DESIGN §13).
/// Every special character is ASCII, and no byte of a multi-byte UTF-8 sequence is ever ASCII, so a byte scan
/// finds each one however the text around it combines.
enum HTMLEscaper {
    /// `text` made safe for HTML content or a single- or double-quoted attribute value.
    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        escape(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text`, escaped, to `output`.
    static func escape(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { input in
            output.reserveCapacity(output.count + input.count)
            var start = 0
            for index in input.indices {
                let replacement: StaticString
                switch input[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                // NUL is not allowed in HTML text; the replacement character shows that something was there.
                case 0: replacement = "\u{FFFD}"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[start...]))
        }
    }
}
