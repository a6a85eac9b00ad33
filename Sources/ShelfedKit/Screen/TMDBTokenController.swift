import Foundation
import Hummingbird

/// The admin's page for the household's TMDB token (DESIGN §17): typed here, checked with TMDB before it is kept,
/// shown back only by its last four characters, and forgotten on request. Anyone but the admin gets a 404.
struct TMDBTokenController: Sendable {
    let titles: TitleSearchService
    let users: UserStore
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.householdTMDB.routerPath, use: show)
        router.post(Route.householdTMDB.routerPath, use: save)
    }

    /// GET /household/tmdb
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await requireAdmin(context)
        var page = try await page(context)
        let saved = FormFields(urlEncoded: request.uri.query ?? "")["saved"]
        page.chrome.toast = saved.flatMap { ActionNotice.saved($0, dismiss: Paths.householdTMDB) }
        return try renderer.render(page, template: "household/tmdb")
    }

    /// POST /household/tmdb (`token`, or `action=forget`)
    @Sendable func save(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        var request = request
        let form = try await request.formFields()
        if form["action"] == "forget" {
            try await titles.tokens.set(nil, now: clock.now())
            return .seeOther(Paths.householdTMDB + "?saved=tmdb-forgotten")
        }
        let token = form.trimmed("token") ?? ""
        // A refused secret is not sent back into the page: the field comes back empty, with why.
        var page = try await page(context)
        guard TMDBClient.isPlausibleToken(token) else {
            page.error = localized(
                "Paste TMDB's “API Read Access Token” ({{looks}}) from themoviedb.org → Settings → API.",
                ["looks": localized("a long line of letters, digits and dots")])
            return try renderer.render(page, template: "household/tmdb", status: .unprocessableContent).response
        }
        switch await titles.check(token: token) {
        case .some(.refused(status: 401)), .some(.refused(status: 403)):
            page.error =
                localized("TMDB refused this token.") + " "
                + localized(
                    "Copy it again from themoviedb.org → Settings → API ({{which}}).",
                    ["which": localized("the long “API Read Access Token”, not the short key")])
            return try renderer.render(page, template: "household/tmdb", status: .unprocessableContent).response
        case .none:
            try await titles.tokens.set(token, now: clock.now())
            return .seeOther(Paths.householdTMDB + "?saved=tmdb")
        case .some:
            // TMDB could not be asked (the internet is down, say): keep it; searches will tell if it is refused.
            try await titles.tokens.set(token, now: clock.now())
            return .seeOther(Paths.householdTMDB + "?saved=tmdb-unchecked")
        }
    }

    private func page(_ context: SignedInContext) async throws -> TMDBTokenPage {
        let typed = try await titles.tokens.typed()
        let environment = titles.tokens.fromEnvironment
        let state: String =
            if let typed {
                localized(
                    "Films and shows come from TMDB, with the token typed here (ending in …{{end}}).",
                    ["end": String(typed.suffix(4))])
            } else if environment != nil {
                localized("Films and shows come from TMDB, with the token in SHELFED_TMDB_TOKEN.") + " "
                    + localized("A token typed here replaces it.")
            } else {
                localized("No token: TV shows come from TVmaze and films from Wikidata, which has no posters.") + " "
                    + localized("A free TMDB token adds posters, cast and every episode.")
            }
        return TMDBTokenPage(
            chrome: PageChrome(title: localized("TMDB token"), context: context), state: state, canForget: typed != nil,
            formPath: Paths.householdTMDB)
    }

    private func requireAdmin(_ context: SignedInContext) async throws {
        guard try await users.isAdmin(context.userID) else { throw AppError.notFound(nil) }
    }
}

/// `household/tmdb`
struct TMDBTokenPage: Sendable {
    var chrome: PageChrome
    let state: String
    let canForget: Bool
    let formPath: String
    var error: String?
}
