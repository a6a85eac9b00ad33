/// Escapes text for HTML content and quoted attributes, byte by byte over UTF-8.
///
/// Working on bytes (never on `Character`s) is the point: a `"` followed by a combining mark is one `Character`
/// that is not equal to `"`, so a Character loop lets the quote through and ends the attribute (DESIGN §13).
/// Every special character is ASCII, and no byte of a multi-byte UTF-8 sequence is ever ASCII, so a byte scan
/// finds each one however the text around it combines.
enum HTMLEscaper {
    /// `text` made safe for HTML content or a single- or double-quoted attribute value.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.contains(where: needsEscaping) else { return String(decoding: bytes, as: UTF8.self) }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count + 32)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
                // NUL is not allowed in HTML text; the replacement character shows that something was there.
                case 0: escaped.append(contentsOf: [0xEF, 0xBF, 0xBD])
                default: escaped.append(byte)
                }
            }
            return String(decoding: escaped, as: UTF8.self)
        }
    }

    @inline(__always)
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == 0
    }
}

extension String {
    /// The text made safe to place in HTML content or a quoted attribute (see `HTMLEscaper`).
    var htmlEscaped: String { HTMLEscaper.escape(self) }
}
