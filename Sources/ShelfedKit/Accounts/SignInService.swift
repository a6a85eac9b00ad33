import Foundation

/// Checks a username-or-email and password for the web sign-in and for API keys alike, under one throttle
/// (DESIGN §13): the attempt is counted before bcrypt runs, per (account, address) and per address.
struct SignInService: Sendable {
    let users: UserStore
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let now: @Sendable () -> Date

    /// The account `login` and `password` name, or nil when they do not match. Throws a 429 `HTTPError` (with
    /// `Retry-After`) while the throttle holds this account or address back.
    func user(login: String, password: String, address: String) async throws -> User? {
        let user = login.isEmpty ? nil : try await users.user(login: login)
        let accountKey = user.map { "user-\($0.id!)" } ?? login.lowercased()
        let now = self.now()
        if let until = try await throttle.admit(
            .signIn, account: accountKey, address: address, limits: .signIn, now: now)
        {
            throw Self.tooManyAttempts(until: until, now: now, doing: "failed sign-in attempts")
        }
        // bcrypt stops at a NUL byte, so such a password would match a shorter one; none is ever valid.
        let acceptable = RegistrationForm.passwordProblem(password, forSignIn: true) == nil
        guard acceptable, try await hasher.verify(password, against: user?.passwordHash), let user else { return nil }
        try await throttle.recordSuccess(.signIn, account: accountKey, address: address)
        return user
    }

    static func tooManyAttempts(until: Date, now: Date, doing: String) -> AppError {
        let seconds = max(1, Int(min(until.timeIntervalSince(now), 24 * 60 * 60).rounded(.up)))
        let minutes = max(1, (seconds + 59) / 60)
        return .rateLimited(
            "Too many \(doing). Try again in \(minutes) minute\(minutes == 1 ? "" : "s").", retryAfter: seconds)
    }
}
