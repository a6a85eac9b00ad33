/// `accounts/register`: the form with what was typed (never the password) and a message per field.
struct RegisterPage: Sendable {
    let chrome: PageChrome
    let username: String
    let displayName: String
    let email: String
    let usernameError: String?
    let displayNameError: String?
    let emailError: String?
    let passwordError: String?
    let registrationClosed: Bool
    let hasErrors: Bool
    /// Where the form posts: `/register`, or the invitation's `/join/…`.
    let formAction: String
    let isJoining: Bool
    /// The very first visit: where the others in the house will find this server.
    var firstRun: HouseAddress? = nil
    /// On the join page: the display name of whoever sent the invitation.
    var invitedBy: String? = nil

    init(
        context: AppRequestContext, form: RegistrationForm = .init(), errors: [String: String] = [:],
        registrationClosed: Bool = false, joining token: String? = nil
    ) {
        chrome = PageChrome(
            title: token == nil ? localized("Create your account") : localized("Join the household"), context: context)
        formAction = token.map(Paths.join) ?? Route.register.link()
        isJoining = token != nil
        username = form.username
        displayName = form.displayName
        email = form.email
        usernameError = errors["username"]
        displayNameError = errors["display_name"]
        emailError = errors["email"]
        passwordError = errors["password"]
        self.registrationClosed = registrationClosed
        hasErrors = !errors.isEmpty
    }
}

/// `accounts/login`: the sign-in form, the place to return to, and one message for any failure.
struct LoginPage: Sendable {
    let chrome: PageChrome
    let login: String
    let next: String?
    let error: String?
    let canRegister: Bool
}
