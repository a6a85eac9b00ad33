import Foundation
import GRDB
import Hummingbird

/// The admin's page for the household's Jellyfin (issue 38): the webhook's secret address, made here and shown once
/// (kept as a digest), and which Jellyfin user each member is. Anyone but the admin gets a 404.
struct JellyfinController: Sendable {
    let webhook: JellyfinWebhookStore
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
            page.newAddress =
                (house.urls.first ?? "http://<this server>:8080") + JellyfinWebhookController.path + "?secret="
                + secret
            page.hasSecret = true
            return try renderer.render(page, template: "household/jellyfin").response
        case "forget":
            try await webhook.forgetSecret()
            return .seeOther(Paths.householdJellyfin + "?saved=jellyfin-forgotten")
        case "users":
            var page = try await page(context)
            var links: [(Int64, String?)] = []
            for index in page.members.indices {
                let typed = form.trimmed("jellyfin_user_\(page.members[index].id)") ?? ""
                page.members[index].value = typed
                if typed.count > Self.maxUserLength || NewBookForm.hasControlCharacters(typed) {
                    page.members[index].error = "A Jellyfin user name or id: at most 100 characters."
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
            throw HTTPError(.badRequest, message: "Use the buttons on the Jellyfin page.")
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
        return JellyfinPage(
            chrome: PageChrome(title: "Jellyfin", context: context), hasSecret: hasSecret, members: members,
            formPath: Paths.householdJellyfin)
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
}
