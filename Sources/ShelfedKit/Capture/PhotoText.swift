import Foundation

/// Rules for the text stored with a photo: whatever tesseract printed or the owner typed becomes plain text of
/// bounded length before it is stored (DESIGN §13).
enum PhotoText {
    enum Status: String, Sendable {
        case pending, reading, done, failed, edited
    }

    /// The most characters kept: a dense page is ~3,000; more is noise or an attack.
    static let maxCharacters = 20_000

    /// `raw` as plain text: control characters other than line breaks and tabs removed (so are the private-use
    /// characters the search page marks matches with), runs of blank lines and trailing spaces dropped, capped.
    static func cleaned(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09: scalars.append(scalar)
            case 0x0D: continue
            case 0x00...0x1F, 0x7F...0x9F, 0xE000...0xF8FF, 0xFEFF, 0x2028, 0x2029: continue
            default: scalars.append(scalar)
            }
        }
        let lines = String(scalars).split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "\u{0C}", with: "").trimmingCharacters(in: .whitespaces)
        }
        var kept: [String] = []
        for line in lines where !(line.isEmpty && (kept.last?.isEmpty ?? true)) {
            kept.append(line)
        }
        while kept.last?.isEmpty == true { kept.removeLast() }
        let text = kept.joined(separator: "\n")
        return text.count > maxCharacters ? String(text.prefix(maxCharacters)) : text
    }
}
