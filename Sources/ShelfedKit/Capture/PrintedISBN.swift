import Foundation

/// ISBNs printed as text ("ISBN 978-0-14-044604-3", "ISBN-10: 0-14-044604-X") in what OCR read from a photo.
/// OCR output is untrusted: only ASCII digits count, and only numbers whose check digit is right are kept.
enum PrintedISBN {
    /// Every checksum-valid ISBN in `text`, in the order printed, without repeats.
    static func find(in text: String) -> [ISBN] {
        let bytes = Array(text.utf8.prefix(256 * 1024))
        var found: [ISBN] = []
        var index = 0
        while index < bytes.count {
            // A run of digits, hyphens, spaces and X that starts with a digit, like "978-0-14 044604-3".
            guard isDigit(bytes[index]) else {
                index += 1
                continue
            }
            var digits: [UInt8] = []
            var end = index
            while end < bytes.count, digits.count < 13 {
                let byte = bytes[end]
                if isDigit(byte) {
                    digits.append(byte)
                } else if byte == 0x58 || byte == 0x78, digits.count == 9 {
                    digits.append(0x58)  // ISBN-10 check character X
                } else if byte != 0x2D && byte != 0x20 {
                    break
                }
                end += 1
            }
            let labelled = isLabelled(bytes, before: index)
            if let isbn = candidate(digits, labelled: labelled), !found.contains(isbn) {
                found.append(isbn)
                index = end
            } else {
                // Not an ISBN from here; step past this run of digits.
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
        }
        return found
    }

    /// 13 digits starting 978/979 stand on their own; a 10-character number only counts after the word ISBN,
    /// since phone numbers and prices are 10 digits too.
    private static func candidate(_ digits: [UInt8], labelled: Bool) -> ISBN? {
        let text = String(decoding: digits, as: UTF8.self)
        if digits.count == 13, text.hasPrefix("978") || text.hasPrefix("979") { return ISBN(text) }
        if labelled, digits.count >= 10 { return ISBN(String(text.prefix(10))) }
        return nil
    }

    /// Whether "ISBN" (any case, perhaps followed by "-10", "-13", ":" or spaces) ends just before `index`.
    private static func isLabelled(_ bytes: [UInt8], before index: Int) -> Bool {
        let window = bytes[max(0, index - 12)..<index]
        let text = String(decoding: window, as: UTF8.self).uppercased()
        guard let range = text.range(of: "ISBN", options: .backwards) else { return false }
        let rest = text[range.upperBound...]
        return rest.allSatisfy { " :-.13O0".contains($0) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
