import Foundation

/// One language's messages, read from a gettext PO file (`locales/<code>.po`), the format translators' tools (Poedit,
/// Weblate, Lokalize) read and write. A message's id is its English text, as gettext does: templates and Swift keep
/// the words a reader sees, and a catalogue maps them. Plural messages give one form per CLDR category, in
/// `PluralCategory.categories(of:)`'s order (the order of the file's `Plural-Forms`).
///
/// Read by Shelfed's own reader: no package in the project reads PO, and the part of the format a catalogue uses —
/// `msgctxt`, `msgid`, `msgid_plural`, `msgstr[n]`, continued strings, comments, the fuzzy flag — is small.
public struct MessageCatalogue: Sendable {
    public let language: Language
    public private(set) var messages: [String: String] = [:]
    public private(set) var plurals: [String: [String]] = [:]

    public struct Unreadable: Error, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public init(language: Language) {
        self.language = language
    }

    public init(po text: String, language: Language) throws {
        self.language = language
        var entry = Entry()
        var field: Field?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                keep(entry)
                entry = Entry()
                field = nil
            } else if line.hasPrefix("#") {
                // A new entry's comments end the one before (PO files usually, not always, leave a blank line).
                if entry.id != nil, field != nil {
                    keep(entry)
                    entry = Entry()
                    field = nil
                }
                if line.hasPrefix("#,"), line.contains("fuzzy") { entry.fuzzy = true }
            } else if line.hasPrefix("\"") {
                guard let field else { throw Unreadable(line: number + 1, reason: "a string outside a field") }
                entry.append(try Self.quoted(line, line: number + 1), to: field)
            } else {
                let (keyword, rest) = Self.split(line)
                guard let next = Field(keyword) else {
                    throw Unreadable(line: number + 1, reason: "unknown keyword \(keyword)")
                }
                if next == .context || (next == .id && field != .context), entry.id != nil {
                    keep(entry)
                    entry = Entry()
                }
                field = next
                entry.start(next)
                entry.append(try Self.quoted(rest, line: number + 1), to: next)
            }
        }
        keep(entry)
    }

    /// The message for `english` (with `context`), nil when the catalogue has none.
    public func text(_ english: String, context: String? = nil) -> String? {
        messages[Self.key(english, context)]
    }

    /// The form of the plural message whose English singular is `one` for `count`, nil when the catalogue has none.
    public func plural(_ one: String, count: Int) -> String? {
        guard let forms = plurals[one] else { return nil }
        let categories = PluralCategory.categories(of: language)
        let index = categories.firstIndex(of: PluralCategory(count, in: language)) ?? categories.count - 1
        return index < forms.count ? forms[index] : forms.last
    }

    static func key(_ english: String, _ context: String?) -> String {
        context.map { $0 + "\u{4}" + english } ?? english
    }

    private mutating func keep(_ entry: Entry) {
        guard let id = entry.id, !id.isEmpty, !entry.fuzzy else { return }
        if entry.pluralID != nil {
            let forms = entry.forms.sorted { $0.key < $1.key }.map(\.value)
            if !forms.isEmpty, forms.allSatisfy({ !$0.isEmpty }) { plurals[id] = forms }
        } else if let text = entry.forms[0], !text.isEmpty {
            messages[Self.key(id, entry.context)] = text
        }
    }

    private enum Field: Equatable {
        case context, id, pluralID
        case form(Int)

        init?(_ keyword: Substring) {
            switch keyword {
            case "msgctxt": self = .context
            case "msgid": self = .id
            case "msgid_plural": self = .pluralID
            case "msgstr": self = .form(0)
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                    let index = Int(keyword.dropFirst(7).dropLast()), (0..<6).contains(index)
                else { return nil }
                self = .form(index)
            }
        }
    }

    private struct Entry {
        var context: String?
        var id: String?
        var pluralID: String?
        var forms: [Int: String] = [:]
        var fuzzy = false

        mutating func start(_ field: Field) {
            switch field {
            case .context: context = ""
            case .id: id = ""
            case .pluralID: pluralID = ""
            case .form(let index): forms[index] = ""
            }
        }

        mutating func append(_ text: String, to field: Field) {
            switch field {
            case .context: context = (context ?? "") + text
            case .id: id = (id ?? "") + text
            case .pluralID: pluralID = (pluralID ?? "") + text
            case .form(let index): forms[index] = (forms[index] ?? "") + text
            }
        }
    }

    private static func split(_ line: String) -> (Substring, String) {
        guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (Substring(line), "") }
        return (line[..<space], line[space...].trimmingCharacters(in: .whitespaces))
    }

    /// A PO string: in double quotes, with C's escapes.
    private static func quoted(_ text: String, line: Int) throws -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else {
            throw Unreadable(line: line, reason: "a string must be in double quotes")
        }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\": result.append(character)
                default: throw Unreadable(line: line, reason: "unknown escape \\\(character)")
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        guard !escaped else { throw Unreadable(line: line, reason: "a string ends in a backslash") }
        return result
    }
}
