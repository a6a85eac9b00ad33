import Foundation
import Logging
import Synchronization

/// Every language's catalogue, loaded once at start-up (`load(directory:)`) and read by the pages' templates
/// (`PageRenderer`, when it builds each language's templates) and by Swift's messages (`localized`). A message a
/// catalogue lacks is shown in English and logged once — never shown as a key.
public final class Translations: Sendable {
    /// The process's catalogues: messages are written in Swift far from any request's services.
    public static let shared = Translations()

    private struct State {
        var catalogues: [Language: MessageCatalogue] = [:]
        var missing: Set<String> = []
        var logger: Logger?
    }

    private let state = Mutex(State())

    /// Reads `<code>.po` for every language but English (whose words are the messages' ids) from `directory`. A
    /// missing file leaves its language in English; an unreadable one stops the start-up, as a broken template does.
    public func load(directory: URL, logger: Logger) throws {
        var catalogues: [Language: MessageCatalogue] = [:]
        for language in Language.allCases where language != .en {
            let file = directory.appendingPathComponent("\(language.rawValue).po")
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                logger.warning("No catalogue for \(language.nativeName) at \(file.path): its pages will be in English")
                continue
            }
            do {
                catalogues[language] = try MessageCatalogue(po: text, language: language)
            } catch {
                throw UnreadableCatalogue(path: file.path, error: error)
            }
        }
        state.withLock { state in
            state.catalogues = catalogues
            state.missing = []
            state.logger = logger
        }
    }

    public struct UnreadableCatalogue: Error, CustomStringConvertible {
        public let path: String
        public let error: any Error
        public var description: String { "The message catalogue \(path) could not be read: \(error)" }
    }

    var logger: Logger? { state.withLock { $0.logger } }

    public func catalogue(for language: Language) -> MessageCatalogue? {
        state.withLock { $0.catalogues[language] }
    }

    /// `english` in `language`, or English (logged once) when its catalogue has no such message.
    public func text(_ english: String, context: String? = nil, in language: Language) -> String {
        guard language != .en else { return english }
        guard let catalogue = catalogue(for: language) else { return english }
        if let text = catalogue.text(english, context: context) { return text }
        noteMissing(english, in: language)
        return english
    }

    /// The form of a plural message for `count` in `language`; English's when the catalogue has none.
    public func plural(one: String, other: String, count: Int, in language: Language) -> String {
        if language != .en, let catalogue = catalogue(for: language) {
            if let text = catalogue.plural(one, count: count) { return text }
            noteMissing(one, in: language)
        }
        return count == 1 ? one : other
    }

    private func noteMissing(_ english: String, in language: Language) {
        let (first, logger) = state.withLock { state in
            (state.missing.insert(language.rawValue + "\u{0}" + english).inserted, state.logger)
        }
        if first { logger?.warning("No \(language.nativeName) for the message “\(english.prefix(80))”") }
    }
}

/// `english` in the request's language, with each `{{name}}` replaced by its value: "Welcome, {{name}}".
func localized(_ english: String, context: String? = nil, _ values: KeyValuePairs<String, String> = [:]) -> String {
    fill(Translations.shared.text(english, context: context, in: Language.current), values.map { ($0.key, $0.value) })
}

/// The form of a plural message for `count` in the request's language, `{{count}}` written as the language writes
/// numbers ("1.234" in Spanish and German).
func localized(one: String, other: String, count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
    let language = Language.current
    let text = Translations.shared.plural(one: one, other: other, count: count, in: language)
    return fill(text, [("count", count.formatted(in: language))] + values.map { ($0.key, $0.value) })
}

/// `text` with each `{{name}}` of `values` replaced, in one pass: a value that itself holds "{{…}}" (a title someone
/// typed) is never filled again.
private func fill(_ text: String, _ values: [(String, String)]) -> String {
    guard !values.isEmpty else { return text }
    // By UTF-8 bytes: Foundation's `range(of:)` (a CFString search each time) was most of a shelf page's messages.
    let bytes = text.utf8
    var filled = ""
    var copied = bytes.startIndex
    var index = bytes.startIndex
    while let open = bytes[index...].firstIndex(of: UInt8(ascii: "{")) {
        let second = bytes.index(after: open)
        guard second < bytes.endIndex, bytes[second] == UInt8(ascii: "{") else {
            index = second
            continue
        }
        let nameStart = bytes.index(after: second)
        guard let close = bytes[nameStart...].firstIndex(of: UInt8(ascii: "}")),
            bytes.index(after: close) < bytes.endIndex,
            bytes[bytes.index(after: close)] == UInt8(ascii: "}")
        else { break }
        let after = bytes.index(close, offsetBy: 2)
        if let value = values.first(where: { $0.0.utf8.elementsEqual(bytes[nameStart..<close]) })?.1 {
            filled += text[copied..<open]
            filled += value
            copied = after
        }
        index = after
    }
    if copied == bytes.startIndex { return text }
    return filled + text[copied...]
}
