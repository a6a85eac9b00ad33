import Foundation

/// The register form as typed, and the rules each field must meet.
struct RegistrationForm: Sendable, Decodable {
    var username = ""
    var displayName = ""
    var email = ""
    var password = ""

    init() {}

    enum CodingKeys: String, CodingKey {
        case username, email, password
        case displayName = "display_name"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        username = try form.trimmed(.username).lowercased()
        displayName = try form.trimmed(.displayName)
        email = try form.trimmed(.email)
        password = try form.text(.password)
    }

    /// Shelfed sends no e-mail, so an address is optional (issue 35). An account without one keeps this stand-in,
    /// unique because usernames are, in the reserved `.invalid` domain that no mail can reach; pages show it empty.
    static let noEmailDomain = "@no-email.invalid"

    static func storedEmail(_ email: String, username: String) -> String {
        email.isEmpty ? username + noEmailDomain : email
    }

    /// What a page shows of a stored address: nothing for the stand-in.
    static func shownEmail(_ stored: String) -> String {
        stored.hasSuffix(noEmailDomain) ? "" : stored
    }

    /// The address to store for this form: the typed one, or the stand-in.
    var emailToStore: String { Self.storedEmail(email, username: username) }

    /// A message per invalid field, keyed by field name.
    func validate() -> [String: String] {
        var errors: [String: String] = [:]
        if let problem = Self.usernameProblem(username) { errors["username"] = problem }
        if displayName.isEmpty {
            errors["display_name"] = localized("Enter the name others in the house will see.")
        } else if displayName.count > 80 {
            errors["display_name"] = localized("Keep the display name to 80 characters or fewer.")
        } else if Self.hasInvisibleControls(displayName) {
            // ESC would reach every housemate's page and terminal log; a NUL cut the name short where it was stored.
            errors["display_name"] = localized(
                "Use letters, digits, spaces and punctuation only — no control characters.")
        }
        if !email.isEmpty,
            !Self.looksLikeEmail(email) || Self.hasInvisibleControls(email)
                || email.lowercased().hasSuffix(Self.noEmailDomain)
        {
            errors["email"] = localized("Enter an email address like name@example.com, or leave it empty.")
        }
        if let problem = Self.passwordProblem(password) { errors["password"] = problem }
        return errors
    }

    static func usernameProblem(_ username: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_.-")
        guard (3...32).contains(username.count), username.allSatisfy(allowed.contains) else {
            return localized("Use 3 to 32 characters: letters, digits, dot, dash or underscore.")
        }
        return nil
    }

    /// bcrypt reads at most 72 bytes, so longer passwords would be silently cut, and stops at a NUL byte, so
    /// `"\0\0\0\0\0\0\0\0"` would be stored as the empty password. Control characters are refused
    /// too: no keyboard types them. At sign-in only the characters are checked, not the length.
    static func passwordProblem(_ password: String, forSignIn: Bool = false) -> String? {
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return localized("Use letters, digits, spaces and symbols only — no control characters.")
        }
        if forSignIn { return nil }
        let bytes = password.utf8.count
        if bytes < 8 { return localized("Use at least 8 characters.") }
        if bytes > 72 { return localized("Use at most 72 bytes (about 72 letters; fewer with accents or emoji).") }
        return nil
    }

    /// Control characters (NUL, ESC, …) and the bidirectional overrides that would reverse the text around a name.
    static func hasInvisibleControls(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value)
        }
    }

    static func looksLikeEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, !email.contains(where: \.isWhitespace)
        else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
    }
}

/// The sign-in form: a username or email, the password as typed, and where to go next.
struct LoginForm: Decodable, Sendable {
    let login: String
    let password: String
    /// Only a same-site path (`safeRelativePath`); anything else is dropped.
    let next: String?

    enum CodingKeys: String, CodingKey {
        case login, password, next
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        login = try form.trimmed(.login)
        password = try form.text(.password)
        next = safeRelativePath(try form.optionalTrimmed(.next))
    }
}
