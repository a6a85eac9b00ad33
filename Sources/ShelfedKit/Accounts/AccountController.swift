import Foundation
import Hummingbird
import HummingbirdAuth

/// Register, sign in and sign out.
struct AccountController: Sendable {
    let users: UserStore
    let household: HouseholdStore
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let signIn: SignInService
    let renderer: PageRenderer
    let registration: AppConfig.Registration
    let now: @Sendable () -> Date
    /// What the rest of the house types to get here, for the first-run page.
    var houseAddress: HouseAddress? = nil
    static let sessionLength: Duration = .seconds(60 * 60 * 24 * 30)

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get(Route.register.routerPath, use: showRegister)
        router.post(Route.register.routerPath, use: register)
        router.get(Route.login.routerPath, use: showLogin)
        router.get(Route.forgotPassword.routerPath, use: forgotPassword)
        router.post(Route.login.routerPath, use: login)
        router.post(Route.logout.routerPath, use: logout)
    }

    /// GET /login/forgot: there is no e-mail in a house's Shelfed, so this says who can help and how.
    @Sendable func forgotPassword(_ request: Request, context: AppRequestContext) async throws -> HTML {
        try renderer.render(
            ForgotPasswordPage(chrome: PageChrome(title: localized("Forgot your password?"), context: context)),
            template: "accounts/forgot")
    }

    /// GET /register
    @Sendable func showRegister(_ request: Request, context: AppRequestContext) async throws -> Response {
        if context.identity != nil { return .seeOther(Paths.home) }
        let closed = try await registrationIsClosed()
        var page = RegisterPage(context: context, registrationClosed: closed)
        if try await users.count() == 0 { page.firstRun = houseAddress }
        return try renderer.render(page, template: "accounts/register").response
    }

    /// POST /register: creates the account and signs it in.
    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let form = try await request.decodeForm(RegistrationForm.self)
        if try await registrationIsClosed() {
            let page = RegisterPage(context: context, form: form, registrationClosed: true)
            return try renderer.render(page, template: "accounts/register", status: .forbidden).response
        }
        var errors = form.validate()
        if errors.isEmpty {
            if let until = try await throttle.admit(
                .registration, account: "", address: context.clientAddress, limits: .registration, now: now())
            {
                throw SignInService.tooManyAttempts(until: until, now: now(), doing: "new accounts from this device")
            }
            let hash = try await hasher.hash(form.password)
            do {
                let user = try await users.create(
                    username: form.username, email: form.emailToStore, displayName: form.displayName,
                    passwordHash: hash, at: now())
                context.sessions.createSession(UserSession(userID: user.id!), expiresIn: Self.sessionLength)
                context.logger.info("Registered account \(user.username)")
                return .seeOther(Paths.home)
            } catch UserStore.Conflict.username {
                errors["username"] = localized("That username is taken. Try another.")
            } catch UserStore.Conflict.email {
                errors["email"] = localized("An account with this email already exists. Sign in instead?")
            }
        }
        let page = RegisterPage(context: context, form: form, errors: errors)
        return try renderer.render(page, template: "accounts/register", status: .unprocessableContent).response
    }

    /// GET /login
    @Sendable func showLogin(_ request: Request, context: AppRequestContext) async throws -> Response {
        let next = safeRelativePath(request.uri.queryParameters["next"].map(String.init))
        if context.identity != nil { return .seeOther(next ?? Paths.home) }
        // A new server has nobody to sign in: the first visit creates the first account (the admin).
        if try await users.count() == 0 { return .seeOther(Route.register.link()) }
        let canRegister = !(try await registrationIsClosed())
        let page = LoginPage(
            chrome: PageChrome(title: localized("Sign in"), context: context), login: "", next: next, error: nil,
            canRegister: canRegister)
        return try renderer.render(page, template: "accounts/login").response
    }

    /// POST /login: username or email plus password; throttled per account and per address.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let form = try await request.decodeForm(LoginForm.self)
        guard
            let user = try await signIn.user(login: form.login, password: form.password, address: context.clientAddress)
        else {
            let canRegister = !(try await registrationIsClosed())
            let page = LoginPage(
                chrome: PageChrome(title: localized("Sign in"), context: context), login: form.login, next: form.next,
                error: localized("That username or password is not right."), canRegister: canRegister)
            return try renderer.render(page, template: "accounts/login", status: .unauthorized).response
        }
        // A fresh session id at every sign-in, so an id planted before sign-in is worth nothing.
        context.sessions.createSession(UserSession(userID: user.id!), expiresIn: Self.sessionLength)
        return .seeOther(form.next ?? Paths.home)
    }

    /// POST /logout
    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        context.sessions.clearSession()
        return .seeOther(Paths.login())
    }

    /// Closed once the first account exists, unless the server's settings or the admin opened it (issue 35).
    private func registrationIsClosed() async throws -> Bool {
        guard registration == .closed, try await users.count() > 0 else { return false }
        return !(try await household.signUpIsOpen())
    }
}

/// `accounts/forgot`: what to do about a forgotten password.
struct ForgotPasswordPage: Sendable {
    let chrome: PageChrome
}
