import Foundation
import Hummingbird

/// The two one-time links the admin hands out (issue 25): `/join/:token` opens registration for one new member, even
/// when registration is closed, and `/password/:token` lets a member who forgot their password choose a new one.
/// Unknown, used, revoked and expired tokens all get the same answer, and every try counts against the same limits
/// as signing in from that device.
struct InvitationController: Sendable {
    let household: HouseholdStore
    let users: UserStore
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let renderer: PageRenderer
    let now: @Sendable () -> Date

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get(Route.join.routerPath, use: showJoin)
        router.post(Route.join.routerPath, use: join)
        router.get(Route.passwordReset.routerPath, use: showReset)
        router.post(Route.passwordReset.routerPath, use: reset)
    }

    /// Computed per request: its words are in the language of the page that shows them.
    static var notValid: String {
        localized("This link cannot be used: it may have been used already, revoked or expired.") + " "
            + localized("Ask whoever runs Shelfed for a new one.")
    }

    /// GET /join/:token
    @Sendable func showJoin(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        try await admit(context)
        guard let inviter = try await household.openInvitation(token, now: now()) else {
            throw AppError.notFound(Self.notValid)
        }
        var page = RegisterPage(context: context, joining: token)
        page.invitedBy = inviter
        return try renderer.render(page, template: "accounts/register").response
    }

    /// POST /join/:token: the same fields as registration; the account is a member, never an admin.
    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        try await admit(context)
        var request = request
        let form = try await request.decodeForm(RegistrationForm.self)
        var errors = form.validate()
        if errors.isEmpty {
            let hash = try await hasher.hash(form.password)
            do {
                let user = try await household.join(
                    with: token, username: form.username, email: form.emailToStore, displayName: form.displayName,
                    passwordHash: hash, now: now())
                context.sessions.createSession(
                    UserSession(userID: user.id!), expiresIn: AccountController.sessionLength)
                context.logger.info("Account \(user.username) joined by invitation")
                return .seeOther(Paths.home)
            } catch HouseholdStore.Refusal.notValid {
                throw AppError.notFound(Self.notValid)
            } catch UserStore.Conflict.username {
                errors["username"] = localized("That username is taken. Try another.")
            } catch UserStore.Conflict.email {
                errors["email"] = localized("An account with this email already exists. Sign in instead?")
            }
        }
        guard let inviter = try await household.openInvitation(token, now: now()) else {
            throw AppError.notFound(Self.notValid)
        }
        var page = RegisterPage(context: context, form: form, errors: errors, joining: token)
        page.invitedBy = inviter
        return try renderer.render(page, template: "accounts/register", status: .unprocessableContent).response
    }

    /// GET /password/:token
    @Sendable func showReset(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let token = context.parameters.get("token") ?? ""
        try await admit(context)
        guard let user = try await household.passwordLinkUser(token, now: now()) else {
            throw AppError.notFound(Self.notValid)
        }
        return try renderer.render(
            NewPasswordPage(context: context, displayName: user.displayName, formPath: Paths.passwordReset(token)),
            template: "accounts/new-password")
    }

    /// POST /password/:token (`password`): the new password ends every other session and device key of the member,
    /// and signs them in here.
    @Sendable func reset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        try await admit(context)
        guard let user = try await household.passwordLinkUser(token, now: now()) else {
            throw AppError.notFound(Self.notValid)
        }
        var request = request
        let password = try await request.formFields()["password"] ?? ""
        if let problem = RegistrationForm.passwordProblem(password) {
            var page = NewPasswordPage(
                context: context, displayName: user.displayName, formPath: Paths.passwordReset(token))
            page.passwordError = problem
            return try renderer.render(page, template: "accounts/new-password", status: .unprocessableContent)
                .response
        }
        let hash = try await hasher.hash(password)
        guard let userID = try await household.spendPasswordLink(token, now: now()) else {
            throw AppError.notFound(Self.notValid)
        }
        try await users.updatePassword(id: userID, hash: hash, keepingSession: nil)
        context.sessions.createSession(UserSession(userID: userID), expiresIn: AccountController.sessionLength)
        return .seeOther(Paths.home)
    }

    /// Counts the try against this device's limits, the sign-in ones: a guessed token costs as much as a guessed
    /// password.
    private func admit(_ context: AppRequestContext) async throws {
        if let until = try await throttle.admit(
            .oneTimeLink, account: "", address: context.clientAddress, limits: .signIn, now: now())
        {
            throw SignInService.tooManyAttempts(until: until, now: now(), doing: "one-time links from this device")
        }
    }
}

/// `accounts/new-password`: the form a one-time password link opens.
struct NewPasswordPage: Sendable {
    let chrome: PageChrome
    let displayName: String
    let formPath: String
    var passwordError: String?

    init(context: AppRequestContext, displayName: String, formPath: String) {
        chrome = PageChrome(title: localized("Choose a new password"), context: context)
        self.displayName = displayName
        self.formPath = formPath
    }
}
