import Foundation
import GRDB
import HTTPTypes
import Testing

@testable import ShelfedKit

/// Shelfed in six languages (issue 39): which language a request is answered in (the person's setting, else a
/// signed-out choice, else the browser's `Accept-Language` with its weights and regions, else the server's default);
/// CLDR's plural categories; the gettext catalogues read and put into the templates at load; numbers grouped as
/// each language groups them; a message a catalogue lacks shown in English, never as a key.
@Suite struct LanguageTests {
    @Test func theBrowsersWeightsAndRegionsChooseALanguageShelfedSpeaks() {
        #expect(Language.preferred(acceptLanguage: "pt-BR,pt;q=0.9,en;q=0.8") == .pt)
        #expect(Language.preferred(acceptLanguage: "es-419") == .es)
        #expect(Language.preferred(acceptLanguage: "de-CH, fr;q=0.9, en;q=0.8") == .de)
        #expect(
            Language.preferred(acceptLanguage: "en;q=0.5, it;q=0.7, zh-CN") == .it,
            "Chinese is not spoken: Italian weighs most")
        #expect(Language.preferred(acceptLanguage: "fr;q=0, de;q=0.1") == .de, "q=0 means not this one")
        #expect(Language.preferred(acceptLanguage: "FR_ca") == .fr)
        #expect(Language.preferred(acceptLanguage: "*, ja") == nil)
        #expect(
            Language.preferred(acceptLanguage: "es;q=abc, de;q=2, it;q=1e400, pt;q=0.3") == .pt,
            "odd weights count as none")
        #expect(
            Language.preferred(acceptLanguage: "en;q=0.9, es;q=0.9") == .en, "equal weights keep the browser's order")
        let hostile = String(repeating: "xx-YY;q=0.5,", count: 10_000) + "de"
        #expect(Language.preferred(acceptLanguage: hostile) == nil, "only the header's first entries are read")
        #expect(
            Language.negotiate(chosen: .it, cookie: .de, acceptLanguage: "fr", fallback: .es) == .it,
            "the person's own choice wins")
        #expect(Language.negotiate(chosen: nil, cookie: .de, acceptLanguage: "fr", fallback: .es) == .de)
        #expect(Language.negotiate(chosen: nil, cookie: nil, acceptLanguage: "fr", fallback: .es) == .fr)
        #expect(Language.negotiate(chosen: nil, cookie: nil, acceptLanguage: "ja", fallback: .es) == .es)
        #expect(Language.negotiate(chosen: nil, cookie: nil, acceptLanguage: nil, fallback: .pt) == .pt)
    }

    @Test func pluralCategoriesFollowCLDR() {
        let counts = [0, 1, 2, 5, 21, 1_000_000]
        func categories(_ language: Language) -> [PluralCategory] { counts.map { PluralCategory($0, in: language) } }
        #expect(categories(.en) == [.other, .one, .other, .other, .other, .other])
        #expect(categories(.de) == [.other, .one, .other, .other, .other, .other])
        #expect(categories(.es) == [.other, .one, .other, .other, .other, .many])
        #expect(categories(.it) == [.other, .one, .other, .other, .other, .many])
        #expect(categories(.fr) == [.one, .one, .other, .other, .other, .many], "French says 0 livre")
        #expect(categories(.pt) == [.one, .one, .other, .other, .other, .many])
    }

    @Test func numbersAreGroupedAsEachLanguageGroupsThem() {
        #expect(1_234_567.formatted(in: .en) == "1,234,567")
        #expect(1_234_567.formatted(in: .de) == "1.234.567")
        #expect(1_234_567.formatted(in: .it) == "1.234.567")
        #expect(1_234_567.formatted(in: .pt) == "1.234.567")
        #expect(1_234_567.formatted(in: .fr).unicodeScalars.filter { $0.properties.isWhitespace }.count == 2)
        // CLDR: Spanish leaves four digits alone and groups from five.
        #expect(1_234.formatted(in: .es) == "1234" && 12_345.formatted(in: .es) == "12.345")
        #expect(Language.$current.withValue(.de) { 5_000.grouped } == "5.000")
    }

    /// Each `{{name}}` is filled once: a value holding braces (a title someone typed) is not filled again, a name
    /// without a value and single braces stay as written, and what follows a placeholder is kept whole.
    @Test func placeholdersAreFilledOnceFromTheirValues() {
        #expect(localized("{{a}} and {{b}}", ["a": "{{b}}", "b": "B"]) == "{{b}} and B")
        #expect(localized("Kept {{unknown}} and {single} {{a}}", ["a": "é"]) == "Kept {{unknown}} and {single} é")
        #expect(localized("{{a}}\u{301}{ {{a}}", ["a": "x"]) == "x\u{301}{ x")
        #expect(localized("No placeholder", ["a": "x"]) == "No placeholder")
        #expect(localized("Unclosed {{a", ["a": "x"]) == "Unclosed {{a")
    }

    @Test func aPOCatalogueIsReadWithItsContinuationsEscapesContextsAndPlurals() throws {
        let po = #"""
            # A translator's note
            msgid ""
            msgstr ""
            "Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);\n"

            #: templates/layout.mustache
            msgid "Sign out"
            msgstr "Cerrar sesión"

            msgid ""
            "A long message "
            "across lines with a \"quote\""
            msgstr ""
            "Un mensaje largo "
            "en varias líneas con una \"cita\""

            msgctxt "button"
            msgid "Save"
            msgstr "Guardar"

            #, fuzzy
            msgid "Unsure"
            msgstr "Dudoso"
            msgid "Empty"
            msgstr ""

            msgid "{{count}} book"
            msgid_plural "{{count}} books"
            msgstr[0] "{{count}} libro"
            msgstr[1] "{{count}} de libros"
            msgstr[2] "{{count}} libros"
            """#
        let catalogue = try MessageCatalogue(po: po, language: .es)
        #expect(catalogue.text("Sign out") == "Cerrar sesión")
        #expect(
            catalogue.text(#"A long message across lines with a "quote""#)
                == #"Un mensaje largo en varias líneas con una "cita""#)
        #expect(catalogue.text("Save", context: "button") == "Guardar" && catalogue.text("Save") == nil)
        #expect(catalogue.text("Unsure") == nil, "a fuzzy translation is not used")
        #expect(catalogue.text("Empty") == nil, "an empty one neither")
        #expect(catalogue.plural("{{count}} book", count: 1) == "{{count}} libro")
        #expect(catalogue.plural("{{count}} book", count: 21) == "{{count}} libros")
        #expect(catalogue.plural("{{count}} book", count: 2_000_000) == "{{count}} de libros")
        #expect(throws: MessageCatalogue.Unreadable.self) {
            try MessageCatalogue(po: "msgid \"open\nmsgstr \"x\"", language: .es)
        }
        #expect(throws: MessageCatalogue.Unreadable.self) {
            try MessageCatalogue(po: "msgwhat \"x\"", language: .es)
        }
    }

    @Test func everyCatalogueLoadsAndAMissingMessageIsEnglishNeverAKey() throws {
        let translations = Translations()
        try translations.load(
            directory: TestApp.packageRoot.appendingPathComponent("locales"), logger: .init(label: "languages"))
        for language in Language.allCases where language != .en {
            let catalogue = try #require(translations.catalogue(for: language), "\(language) has a catalogue")
            #expect(catalogue.text("Sign out") != nil)
            #expect(
                catalogue.plurals.values.allSatisfy { $0.count == PluralCategory.categories(of: language).count },
                "\(language): a form for each plural category")
        }
        #expect(translations.text("Sign out", in: .de) == "Abmelden")
        #expect(translations.text("A sentence no catalogue has", in: .de) == "A sentence no catalogue has")
        #expect(
            translations.plural(one: "{{count}} thing", other: "{{count}} things", count: 2, in: .fr)
                == "{{count}} things")
        // A value that holds a placeholder (a title someone typed) is put in as it is, never filled again.
        #expect(localized("{{a}} and {{b}}", ["a": "{{b}}", "b": "x"]) == "{{b}} and x")
        #expect(
            localized(one: "{{count}} of {{title}}", other: "{{count}} of {{title}}", count: 3, ["title": "{{count}}"])
                == "3 of {{count}}")
    }

    @Test func aLanguagesTemplatesAreBuiltOnItsFirstPageAndABrokenTranslationStopsTheStart() async throws {
        let templates = TestApp.packageRoot.appendingPathComponent("templates").path
        let renderer = try await PageRenderer(directory: templates)
        #expect(renderer.languages.builtLanguages.isEmpty)
        func loginPage(_ language: Language) -> String? {
            Language.$current.withValue(language) {
                renderer.library.render([String: String](), withTemplate: "accounts/login")
            }
        }
        #expect(loginPage(.en)?.contains("Sign in to Shelfed") == true)
        #expect(renderer.languages.builtLanguages.isEmpty)
        #expect(loginPage(.es)?.contains("Inicia sesión en Shelfed") == true)
        #expect(loginPage(.es)?.contains(#"<html lang="es">"#) == true)
        #expect(renderer.languages.builtLanguages == [.es])
        #expect(loginPage(.de)?.contains("Bei Shelfed anmelden") == true)
        #expect(renderer.languages.builtLanguages == [.es, .de])
        // Half an hour on, unused: let go, and built again on the next page in the language.
        #expect(!renderer.languages.forgetUnused())
        #expect(renderer.languages.forgetUnused(now: .now + LanguageTemplates.keptUnused))
        #expect(renderer.languages.builtLanguages.isEmpty)
        #expect(loginPage(.de)?.contains("Bei Shelfed anmelden") == true)
        #expect(renderer.languages.builtLanguages == [.de])
        // The server's own language is built at start-up and kept.
        let italian = try await PageRenderer(directory: templates, serverLanguage: .it)
        let accedi = Language.$current.withValue(.it) {
            italian.library.render([String: String](), withTemplate: "accounts/login")
        }
        #expect(accedi?.contains(#"<html lang="it">"#) == true)
        #expect(italian.languages.builtLanguages.isEmpty)
        #expect(!italian.languages.forgetUnused(now: .now + LanguageTemplates.keptUnused))

        // A translation that opens a section it never closes is found at start-up, not on a German page.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locales-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        msgid ""
        msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

        msgid "Sign out"
        msgstr "{{#abmelden}}Abmelden"
        """.write(to: folder.appendingPathComponent("de.po"), atomically: true, encoding: .utf8)
        let broken = Translations()
        try broken.load(directory: folder, logger: .init(label: "languages"))
        await #expect(throws: PageRenderer.BrokenTemplate.self) {
            _ = try await PageRenderer(directory: templates, translations: broken)
        }
    }

    @Test func pagesSpeakTheBrowsersLanguageUntilAChoiceIsMade() async throws {
        let app = TestApp()
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("admin")
            // Signed out, a Spanish browser: the sign-in page speaks Spanish, says so, and marks its button.
            let guest = WebSession(client)
            guest.extraHeaders[.acceptLanguage] = "es-419,es;q=0.9,en;q=0.8"
            let login = try await guest.get("/login")
            #expect(login.text.contains(#"<html lang="es">"#))
            #expect(
                login.text.contains("Inicia sesión en Shelfed") && login.text.contains("Nombre de usuario o correo"))
            #expect(login.text.contains(#"value="es" lang="es" class="button-link" aria-current="true">Español"#))
            #expect(!login.text.contains("Sign in to Shelfed"))
            // A wrong password: the message in Spanish, what was typed kept.
            let refused = try await guest.post("/login", ["login": "admin", "password": "not this one"])
            #expect(refused.text.contains("El nombre de usuario o la contraseña no son correctos."))
            #expect(refused.text.contains(#"value="admin""#))
            // An unknown page in French.
            let french = WebSession(client)
            french.extraHeaders[.acceptLanguage] = "fr-CA"
            let missing = try await french.get("/no-such-page")
            #expect(missing.status == .notFound && missing.text.contains("Page introuvable"))

            // The switch, signed out: German for this browser, whatever it asks, and back to the page it was on.
            guest.extraHeaders[.referer] = "http://shelfed.local:8080/login?next=/shelves"
            let switched = try await guest.post("/language", ["language": "de"])
            #expect(switched.status == .seeOther && switched.headers[.location] == "/login?next=/shelves")
            #expect(try await guest.get("/login").text.contains("Bei Shelfed anmelden"))
            let odd = try await guest.post("/language", ["language": "xx"])
            #expect(odd.status == .badRequest && odd.text.contains("Wähle eine der aufgeführten Sprachen."))
            guest.extraHeaders[.referer] = "https://elsewhere.example//evil"
            #expect(try await guest.post("/language", ["language": "it"]).headers[.location] == "/")

            // Signed in, the person's setting wins over the browser; the choice is in Settings.
            admin.extraHeaders[.acceptLanguage] = "pt-BR"
            let home = try await admin.get("/profile/edit")
            #expect(home.text.contains(#"<html lang="pt">"#) && home.text.contains("Sair"))
            #expect(home.text.contains(#"<option value="" selected>Conforme o navegador</option>"#))
            let saved = try await admin.post("/language", ["language": "it", "back": "/profile/edit"])
            #expect(saved.headers[.location] == "/profile/edit")
            let italian = try await admin.get("/profile/edit")
            #expect(italian.text.contains(#"<html lang="it">"#) && italian.text.contains(">Esci</button>"))
            #expect(italian.text.contains(#"<option value="it" lang="it" selected>Italiano</option>"#))
            #expect(try await app.database().read { try String.fetchOne($0, sql: "SELECT language FROM user") } == "it")
            // Back to the browser's: Portuguese again.
            _ = try await admin.post("/language", ["language": "", "back": "/profile/edit"])
            #expect(try await admin.get("/profile/edit").text.contains(#"<html lang="pt">"#))
        }
    }

    @Test func titlesSortAsTheSixLanguagesSortThem() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("reader")
            for (title, author) in [
                ("Zebra", "Zola"), ("Ñandú", "Ñúñez"), ("Nube", "Nadal"), ("Ärger", "Öhler"), ("apfel", "Ober"),
                ("Élan", "Eco"), ("Eiche", "Éluard"),
            ] {
                _ = try await web.addBook(["title": title, "authors": author, "shelf": "want_to_read"])
            }
            func order(_ sort: String) async throws -> [String] {
                let page = try await web.get("/shelves/want-to-read?sort=\(sort)&order=asc").text
                return ["Zebra", "Ñandú", "Nube", "Ärger", "apfel", "Élan", "Eiche"].sorted {
                    page.range(of: ">\($0)<")!.lowerBound < page.range(of: ">\($1)<")!.lowerBound
                }
            }
            // Umlauts and accents beside their letter, ñ after every n, whatever the case.
            #expect(try await order("title") == ["apfel", "Ärger", "Eiche", "Élan", "Nube", "Ñandú", "Zebra"])
            #expect(try await order("author") == ["Élan", "Eiche", "Nube", "Ñandú", "apfel", "Ärger", "Zebra"])
            // An edit keeps the key right (the triggers, not the writer, keep it).
            let keys = try await app.database().read { db in
                try String.fetchAll(db, sql: "SELECT title_key FROM book ORDER BY title_key")
            }
            #expect(keys == ["apfel", "arger", "eiche", "elan", "nube", "n~andu", "zebra"])
        }
    }
}
