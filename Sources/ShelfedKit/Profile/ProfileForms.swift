/// The settings forms of the profile, decoded with `URLEncodedFormDecoder` (see `Request.decodeForm`).

/// `POST /profile/password`: both passwords exactly as typed.
struct PasswordForm: Decodable, Sendable {
    let current: String
    let new: String

    enum CodingKeys: String, CodingKey {
        case current = "current_password"
        case new = "new_password"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        current = try form.text(.current)
        new = try form.text(.new)
    }
}

/// `POST /profile/delete`: the username typed again to confirm.
struct DeleteAccountForm: Decodable, Sendable {
    let confirmUsername: String

    enum CodingKeys: String, CodingKey {
        case confirmUsername = "confirm_username"
    }

    init(from decoder: any Decoder) throws {
        confirmUsername = try decoder.container(keyedBy: CodingKeys.self).trimmed(.confirmUsername).lowercased()
    }
}

/// `POST /profile/goal`: books this year, 1 to 1,000; empty or 0 clears it. Nil `goal` with `isValid` false is a
/// value that is not such a number.
struct GoalForm: Decodable, Sendable {
    let goal: Int?
    let isValid: Bool
    /// As typed, to show again beside its message.
    let typed: String

    enum CodingKeys: String, CodingKey {
        case goal
    }

    init(from decoder: any Decoder) throws {
        let text = try decoder.container(keyedBy: CodingKeys.self).trimmed(.goal)
        typed = text
        let number = BoundedNumber.parse(text, in: BoundedNumber.readingGoal)
        isValid = text.isEmpty || number != nil
        goal = number.flatMap { $0 > 0 ? $0 : nil }
    }
}
