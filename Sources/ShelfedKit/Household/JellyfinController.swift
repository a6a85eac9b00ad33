import Foundation
import GRDB
import Hummingbird

/// The admin's page for the household's Jellyfin (issue 38): the webhook's secret address, made here and shown once
/// (kept as a digest), and which Jellyfin user each member is. Anyone but the admin gets a 404.
struct JellyfinController: Sendable {
    let webhook: JellyfinWebhookStore
    let server: JellyfinServer
    let users: UserStore
    let renderer: PageRenderer
    let clock: AppClock
    /// What the rest of the house types to reach the server, for the address shown.
    let house: HouseAddress

    static let maxUserLength = 100

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.householdJellyfin.routerPath, use: show)
        router.post(Route.householdJellyfin.routerPath, use: save)
    }

    /// GET /household/jellyfin
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await requireAdmin(context)
        var page = try await page(context)
        let saved = FormFields(urlEncoded: request.uri.query ?? "")["saved"]
        page.chrome.toast = saved.flatMap { ActionNotice.saved($0, dismiss: Paths.householdJellyfin) }
        return try renderer.render(page, template: "household/jellyfin")
    }

    /// POST /household/jellyfin (`action` = secret | forget | users; for users, `jellyfin_user_<member id>`)
    @Sendable func save(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        var request = request
        let form = try await request.formFields()
        switch form["action"] {
        case "secret":
            let secret = try await webhook.newSecret(now: clock.now())
            var page = try await page(context)
            // Shown once: the page is the answer to the POST, never a link that could be reloaded from history.
            // No address known: a stand-in the admin replaces, "http://<this server>:8080".
            let address = house.urls.first ?? "http://<" + localized("this server") + ">:8080"
            page.newAddress = address + JellyfinWebhookController.path + "?secret=" + secret
            page.hasSecret = true
            return try renderer.render(page, template: "household/jellyfin").response
        case "forget":
            try await webhook.forgetSecret()
            return .seeOther(Paths.householdJellyfin + "?saved=jellyfin-forgotten")
        case "server":
            return try await link(form, context)
        case "forget-server":
            try await server.forget()
            return .seeOther(Paths.householdJellyfin + "?saved=jellyfin-server-forgotten")
        case "users":
            var page = try await page(context)
            var links: [(Int64, String?)] = []
            for index in page.members.indices {
                let typed = form.trimmed("jellyfin_user_\(page.members[index].id)") ?? ""
                page.members[index].value = typed
                if typed.count > Self.maxUserLength || NewBookForm.hasControlCharacters(typed) {
                    page.members[index].error = localized("A Jellyfin user name or id: at most 100 characters.")
                }
                links.append((page.members[index].id, typed.isEmpty ? nil : typed))
            }
            guard page.members.allSatisfy({ $0.error == nil }) else {
                return try renderer.render(page, template: "household/jellyfin", status: .unprocessableContent)
                    .response
            }
            try await webhook.db.write { [links] db in
                for (id, user) in links {
                    try db.execute(sql: "UPDATE user SET jellyfin_user = ? WHERE id = ?", arguments: [user, id])
                }
            }
            return .seeOther(Paths.householdJellyfin + "?saved=jellyfin-users")
        default:
            throw HTTPError(.badRequest, message: localized("Use the buttons on the Jellyfin page."))
        }
    }

    /// Saves the server's address and key once Jellyfin answers for them; else the form again, as typed (the key is
    /// never shown back), with what to do.
    private func link(_ form: FormFields, _ context: SignedInContext) async throws -> Response {
        var page = try await page(context)
        let typedURL = form.trimmed("jellyfin_url") ?? ""
        // No key typed while one is saved: the saved one, with the new address.
        var key = form.trimmed("jellyfin_api_key") ?? ""
        if key.isEmpty, let saved = try await server.saved() { key = saved.apiKey }
        page.serverURL = typedURL
        guard let url = JellyfinServer.baseURL(typedURL) else {
            page.serverError = localized("Type the address you open Jellyfin at, like http://192.168.1.20:8096.")
            return try renderer.render(page, template: "household/jellyfin", status: .unprocessableContent).response
        }
        guard JellyfinServer.isPlausibleKey(key) else {
            page.keyError = localized("Paste an API key made in Jellyfin: Dashboard → API Keys → +.")
            return try renderer.render(page, template: "household/jellyfin", status: .unprocessableContent).response
        }
        do {
            let info = try await server.checkingClient(url: url, apiKey: key).info()
            let name = info.serverName.flatMap { name -> String? in
                let trimmed = String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(100))
                return trimmed.isEmpty || NewBookForm.hasControlCharacters(trimmed) ? nil : trimmed
            }
            let version = info.version.flatMap {
                $0.utf8.count <= 20 && !NewBookForm.hasControlCharacters($0) ? $0 : nil
            }
            try await server.save(url: url, apiKey: key, now: clock.now())
            page = try await self.page(context)
            let versionWords = version.map { " (Jellyfin \($0))" } ?? ""
            let connected =
                name.map { localized("Connected to “{{name}}”{{version}}.", ["name": $0, "version": versionWords]) }
                ?? localized("Connected to Jellyfin{{version}}.", ["version": versionWords])
            page.serverNotice =
                connected + " " + localized("Each member can now bring in what they played, from their Import page.")
            return try renderer.render(page, template: "household/jellyfin").response
        } catch let failure as UpstreamFailure {
            page.serverError = Self.advice(for: failure, url: url)
            return try renderer.render(page, template: "household/jellyfin", status: .unprocessableContent).response
        }
    }

    /// What to do when Jellyfin did not accept the address or key (also `doctor`'s advice).
    static func advice(for failure: UpstreamFailure, url: String) -> String {
        switch failure {
        case .refused(status: 401), .refused(status: 403):
            localized("Jellyfin refused the API key.") + " "
                + localized("Make one in Jellyfin (Dashboard → API Keys → +) and paste it here.")
        case .tooLarge:
            localized("{{url}} answered with more than Shelfed reads at once.", ["url": url]) + " "
                + localized("Check the address: the one you open Jellyfin at.")
        case .notFound, .malformed:
            localized("{{url}} answered, but not as Jellyfin does.", ["url": url]) + " "
                + localized("Check the address: the one you open Jellyfin at in a browser.")
        default:
            localized("Shelfed cannot reach Jellyfin at {{url}}.", ["url": url]) + " "
                + localized("Is it running, and is the address the one this server can reach?")
        }
    }

    private func page(_ context: SignedInContext) async throws -> JellyfinPage {
        let (hasSecret, members) = try await webhook.db.read { db in
            (
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM household_setting WHERE key = ?",
                    arguments: [JellyfinWebhookStore.secretKey]) == true,
                try Row.fetchAll(
                    db, sql: "SELECT id, display_name, jellyfin_user FROM user ORDER BY display_name COLLATE NOCASE, id"
                ).map {
                    JellyfinPage.Member(id: $0["id"], name: $0["display_name"], value: $0["jellyfin_user"] ?? "")
                }
            )
        }
        var page = JellyfinPage(
            chrome: PageChrome(title: "Jellyfin", context: context), hasSecret: hasSecret, members: members,
            formPath: Paths.householdJellyfin)
        let saved = try await server.saved()
        page.hasServer = saved != nil
        page.serverURL = saved?.url ?? ""
        if saved != nil {
            let held = try await webhook.db.read { db in
                try String.fetchOne(
                    db, sql: "SELECT value FROM household_setting WHERE key = ?",
                    arguments: [JellyfinLibrary.checkedKey])
            }
            page.libraryLine =
                held.flatMap { Int($0) }.map { count in
                    let found = localized(
                        one: "Shelfed found {{count}} film or show on it, and looks again every six hours.",
                        other: "Shelfed found {{count}} films and shows on it, and looks again every six hours.",
                        count: count)
                    return found + " " + localized("Their pages, and film night, say “At home”.")
                } ?? localized("Shelfed is reading what it holds: films and shows on it will say “At home”.")
        }
        return page
    }

    private func requireAdmin(_ context: SignedInContext) async throws {
        guard try await users.isAdmin(context.userID) else { throw AppError.notFound(nil) }
    }
}

/// `household/jellyfin`.
struct JellyfinPage: Sendable {
    struct Member: Sendable {
        let id: Int64
        let name: String
        var value: String
        var error: String? = nil
        /// Stored, not computed: Mustache reads a value's stored properties only.
        let fieldID: String

        init(id: Int64, name: String, value: String) {
            self.id = id
            self.name = name
            self.value = value
            fieldID = "jellyfin_user_\(id)"
        }
    }

    var chrome: PageChrome
    var hasSecret: Bool
    var members: [Member]
    let formPath: String
    /// The webhook's address with its new secret, on the answer that made it.
    var newAddress: String? = nil
    /// The linked server (its address; the key is never shown), and the server form's answer.
    var hasServer = false
    var serverURL = ""
    var serverError: String? = nil
    var keyError: String? = nil
    var serverNotice: String? = nil
    /// What the server holds, for "At home", as last read.
    var libraryLine: String? = nil
}
