import Foundation
import Mustache
import Synchronization

/// The templates in each language: English's from start-up, each other language's from the first page asked for
/// in it.
///
/// A language's templates are the whole set parsed again with its words put in (`TemplateTranslation`), so that a
/// page costs the same in every language. Parsed, one set takes about 1.6 MB (swift-mustache keeps each section's
/// text beside its tokens, so a nested section's text is held once for each level around it), and six sets built
/// at start-up put an idle server 8 MB over its budget (benchmarks/README.md, "Six languages"). Most households
/// speak one or two languages, so a set is built when its language is first asked for and kept from then on.
final class LanguageTemplates: Sendable {
    struct Source: Sendable {
        let name: String
        let text: String
    }

    let english: MustacheLibrary
    private let sources: [Source]
    private let translations: Translations
    private let built = Mutex<[Language: MustacheLibrary]>([:])

    /// Parses every template in every language once, so that a broken template or a translation that breaks a tag
    /// stops the start-up rather than a page; only English's are kept (start-up's memory is then given back,
    /// `IdleMemory`).
    init(sources: [(name: String, source: String)], translations: Translations) throws {
        self.sources = sources.map { Source(name: $0.name, text: $0.source) }
        self.translations = translations
        english = try Self.build(.en, from: self.sources, translations: translations)
        for language in Language.allCases where language != .en {
            _ = try Self.build(language, from: self.sources, translations: translations, reportingMissing: true)
        }
    }

    /// The templates in `language`, built now if this is its first page.
    func library(for language: Language) -> MustacheLibrary {
        guard language != .en else { return english }
        return built.withLock { built in
            if let library = built[language] { return library }
            // The same sources parsed at start-up, so this cannot fail; English stands in if it ever does.
            let library = (try? Self.build(language, from: sources, translations: translations)) ?? english
            built[language] = library
            return library
        }
    }

    /// The languages whose templates have been built besides English (tests, the admin's memory figures).
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
        if reportingMissing, !translation.missing.isEmpty {
            translations.logger?.warning(
                "\(language.nativeName) lacks \(translation.missing.count) of the templates' messages; they show in English"
            )
        }
        return library
    }
}
