import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, keeping the user's text exactly as typed.
struct FormFields: Sendable {
    private var values: [String: [String]] = [:]

    init(urlEncoded body: String) {
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count > 1 ? Self.decode(parts[1]) ?? "" : ""
            values[name, default: []].append(value)
        }
    }

    /// The first value of `name`, or nil when the form did not send it.
    subscript(name: String) -> String? { values[name]?.first }

    /// Every value of `name`, in the order sent (`?isbn=…&isbn=…`).
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The first value of `name` with surrounding whitespace removed; empty becomes nil.
    func trimmed(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    private static func decode(_ component: Substring) -> String? {
        component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
