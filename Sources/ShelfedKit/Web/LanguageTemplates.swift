import Foundation
import Mustache
import Synchronization

/// The templates in each language: English's and the server's own language's (`SHELFED_LANGUAGE`) from start-up,
/// any other language's from the first page asked for in it, let go again when nobody has asked for one in half an
/// hour.
///
/// A language's templates are the whole set parsed again with its words put in (`TemplateTranslation`), so that a
/// page costs the same in every language. Parsed, one set takes about 1.7 MB (swift-mustache keeps each section's
/// text beside its tokens, so a nested section's text is held once for each level around it), and six sets built
/// at start-up put an idle server 8 MB over its budget (benchmarks/README.md, "Six languages"). Building a set takes
/// about 0.1 s here (more on a Pi), once, on the first page in its language; an idle server gives it back
/// (`IdleMemoryService`) when the house has not used the language for `keptUnused`.
final class LanguageTemplates: Sendable {
    struct Source: Sendable {
        let name: String
        let text: String
    }

    private struct Built {
        let library: MustacheLibrary
        var lastUsed: ContinuousClock.Instant
    }

    static let keptUnused = Duration.seconds(30 * 60)

    let english: MustacheLibrary
    /// The server's own language besides English, kept for good: most of the house's pages are in it.
    private let resident: (language: Language, library: MustacheLibrary)?
    private let sources: [Source]
    private let translations: Translations
    private let built = Mutex<[Language: Built]>([:])

    /// Parses every template in every language once, so that a broken template or a translation that breaks a tag
    /// stops the start-up rather than a page. Each is let go as soon as it is checked (a whole language at a time
    /// left 2 MB of holes in the heap), except English's and `serverLanguage`'s.
    init(sources: [(name: String, source: String)], translations: Translations, serverLanguage: Language = .en)
        throws
    {
        self.sources = sources.map { Source(name: $0.name, text: $0.source) }
        self.translations = translations
        english = try Self.build(.en, from: self.sources, translations: translations)
        resident =
            serverLanguage == .en
            ? nil
            : (
                serverLanguage,
                try Self.build(serverLanguage, from: self.sources, translations: translations, reportingMissing: true)
            )
        for language in Language.allCases where language != .en && language != serverLanguage {
            var translation = TemplateTranslation(language: language, catalogue: translations.catalogue(for: language))
            for source in self.sources {
                do {
                    _ = try MustacheTemplate(string: try translation.apply(to: source.text))
                } catch {
                    throw PageRenderer.BrokenTemplate(name: source.name, error: error)
                }
            }
            Self.reportMissing(translation, translations)
        }
    }

    /// The templates in `language`, built now if this is its first page (or its first in half an hour).
    func library(for language: Language) -> MustacheLibrary {
        guard language != .en else { return english }
        if let resident, resident.language == language { return resident.library }
        let now = ContinuousClock.now
        return built.withLock { built in
            if let library = built[language]?.library {
                built[language]?.lastUsed = now
                return library
            }
            // The same sources parsed at start-up, so this cannot fail; English stands in if it ever does.
            let library = (try? Self.build(language, from: sources, translations: translations)) ?? english
            built[language] = Built(library: library, lastUsed: now)
            return library
        }
    }

    /// Lets go of the languages nobody has asked for in `keptUnused`; true when it let one go.
    func forgetUnused(now: ContinuousClock.Instant = .now) -> Bool {
        built.withLock { built in
            let unused = built.filter { now - $0.value.lastUsed >= Self.keptUnused }.map(\.key)
            for language in unused { built[language] = nil }
            return !unused.isEmpty
        }
    }

    /// The languages whose templates are built besides English and the server's own (tests).
    var builtLanguages: Set<Language> { built.withLock { Set($0.keys) } }

    private static func build(
        _ language: Language, from sources: [Source], translations: Translations, reportingMissing: Bool = false
    ) throws -> MustacheLibrary {
        var translation = TemplateTranslation(language: language, catalogue: translations.catalogue(for: language))
        var library = MustacheLibrary()
        for source in sources {
            do {
                try library.register(
                    "{{% CONTENT_TYPE: \(PageRenderer.contentTypeName) }}\n" + (try translation.apply(to: source.text)),
                    named: source.name)
            } catch {
                throw PageRenderer.BrokenTemplate(name: source.name, error: error)
            }
        }
        if reportingMissing { reportMissing(translation, translations) }
        return library
    }

    private static func reportMissing(_ translation: TemplateTranslation, _ translations: Translations) {
        guard !translation.missing.isEmpty else { return }
        translations.logger?.warning(
            "\(translation.language.nativeName) lacks \(translation.missing.count) of the templates' messages; they show in English"
        )
    }
}
