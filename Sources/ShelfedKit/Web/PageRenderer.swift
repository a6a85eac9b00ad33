import Foundation
import Hummingbird
import Mustache

/// Renders typed page view models through the Mustache templates in `templates/`.
///
/// swift-mustache's built-in HTML escaping loops over `Character`s and lets a quote plus a combining mark
/// through (DESIGN §13). Its escaping is chosen per template by a `CONTENT_TYPE` pragma, and a template
/// without one (every partial and parent template starts afresh) falls back to the built-in type. So the
/// renderer loads the templates itself and puts `{{% CONTENT_TYPE: SHELFED_HTML }}` in front of every one:
/// a template file cannot forget it, and an unregistered type would fail to parse rather than escape badly.
public struct PageRenderer: Sendable {
    /// English's and the server's language's templates, and each other language's while the house uses it
    /// (`LanguageTemplates`).
    let languages: LanguageTemplates
    let layouts = LayoutCache()
    static let contentTypeName = "SHELFED_HTML"

    /// Reads every template at start-up and checks that it parses in every language, so a missing or broken one (a
    /// translation that breaks a tag, too) stops the server instead of a page. The catalogues must be loaded first
    /// (`Translations.load`).
    public init(directory: String, translations: Translations = .shared, serverLanguage: Language = .en) async throws {
        MustacheContentTypes.register(SafeHTMLContentType(), named: Self.contentTypeName)
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "mustache" } ?? []
        var sources: [(name: String, source: String)] = []
        for file in files {
            let relative = file.standardizedFileURL.path.dropFirst(root.path.count + 1)
            sources.append(
                (String(relative.dropLast(".mustache".count)), try String(contentsOf: file, encoding: .utf8)))
        }
        languages = try LanguageTemplates(sources: sources, translations: translations, serverLanguage: serverLanguage)
    }

    /// The templates in the request's language.
    var library: MustacheLibrary { languages.library(for: Language.current) }

    /// Renders `page` with the template named `feature/action`.
    public func render(_ page: some Sendable, template: String, status: HTTPResponse.Status = .ok) throws -> HTML {
        #if DEBUG
            try MustacheParentCheck.verify(page)
        #endif
        guard let body = library.render(page, withTemplate: template) else {
            throw MissingTemplate(name: template)
        }
        return HTML(body, status: status)
    }

    /// Renders a page whose body was built in Swift: `template` must show `{{{body}}}` inside the layout.
    func render(body: HTMLFragment, chrome: PageChrome, template: String, status: HTTPResponse.Status = .ok) throws
        -> HTML
    {
        let page = try layouts.page(body: body, chrome: chrome, template: template) { body in
            guard let page = library.render(BodyPage(chrome: chrome, body: body), withTemplate: template) else {
                throw MissingTemplate(name: template)
            }
            return page
        }
        return HTML(bytes: page, status: status)
    }

    public struct MissingTemplate: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "Template '\(name).mustache' is missing from the templates folder." }
    }

    public struct BrokenTemplate: Error, CustomStringConvertible {
        public let name: String
        public let error: any Error
        public var description: String { "Template '\(name).mustache' could not be read: \(error)" }
    }
}

/// Mustache's `{{value}}` escaping, done by `HTMLEscaper` over UTF-8 bytes.
struct SafeHTMLContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        HTMLEscaper.escape(text)
    }
}

/// A page made of the layout's chrome and a body built in Swift.
struct BodyPage: Sendable, MustacheParent {
    let chrome: PageChrome
    let body: HTMLFragment

    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "body": body
        default: nil
        }
    }
}
