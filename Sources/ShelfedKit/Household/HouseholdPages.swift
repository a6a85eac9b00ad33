import Foundation

/// `household/index`: the admin's page.
struct HouseholdPage: Sendable {
    struct MemberItem: Sendable {
        let displayName: String
        let username: String
        let summary: String
        let isAdmin: Bool
        let isYou: Bool
        let passwordPath: String
        let removePath: String
        let adminPath: String
    }

    struct InvitationItem: Sendable {
        let note: String
        let expires: String
        let revokePath: String
    }

    struct NewLink: Sendable {
        let url: String
        let message: String
    }

    struct Lifetime: Sendable {
        let days: Int
        let label: String
        let selected: Bool
    }

    /// Whether someone without an invitation may make an account.
    enum SignUp: Sendable {
        case closed, open
        /// `SHELFED_REGISTRATION=open` in the server's settings: the switch here cannot close it.
        case openBySetting
    }

    var chrome: PageChrome
    let members: [MemberItem]
    let signUpOpen: Bool
    let signUpOpenBySetting: Bool
    let signUpPath = Paths.householdSignUp
    let invitations: [InvitationItem]
    let hasInvitations: Bool
    let invitePath = Paths.householdInvitations
    let lifetimes: [Lifetime]
    var noteValue = ""
    var noteError: String?
    var daysError: String?
    /// An invitation or password link just made: shown this once.
    var newLink: NewLink?
    /// Why a link may not work on other devices, when it may not.
    var addressNote: String?

    init(
        context: SignedInContext, members: [HouseholdStore.Member], invitations: [HouseholdStore.OpenInvitation],
        signUp: SignUp, now: Date
    ) {
        chrome = PageChrome(title: localized("Your household"), context: context, tab: .profile)
        var day = Date.FormatStyle.dateTime.year().month(.wide).day()
        if Language.current != .en { day.locale = Language.current.locale }
        self.members = members.map { member in
            let books = localized(one: "{{count}} book", other: "{{count}} books", count: member.bookCount)
            let joined = Self.howJoined(member, on: member.joined.formatted(day))
            return MemberItem(
                displayName: member.displayName, username: member.username,
                summary: "@\(member.username) · \(joined) · \(books)",
                isAdmin: member.isAdmin, isYou: member.id == context.userID,
                passwordPath: Paths.householdMemberPassword(member.id),
                removePath: Paths.householdMemberRemove(member.id), adminPath: Paths.householdMemberAdmin(member.id))
        }
        self.invitations = invitations.map { invitation in
            InvitationItem(
                note: invitation.note ?? localized("No note"),
                expires: localized("Until {{day}}", ["day": invitation.expiresAt.formatted(day)]),
                revokePath: Paths.householdInvitationRevoke(invitation.id))
        }
        hasInvitations = !invitations.isEmpty
        signUpOpen = signUp != .closed
        signUpOpenBySetting = signUp == .openBySetting
        lifetimes = HouseholdStore.invitationLifetimes.map {
            Lifetime(days: $0.days, label: $0.label, selected: $0.days == 7)
        }
    }
}

extension HouseholdPage {
    /// "joined 3 March 2026 by invitation from Alice", "joined … on the open sign-up page", …; only the day for
    /// accounts from before issue 35.
    static func howJoined(_ member: HouseholdStore.Member, on day: String) -> String {
        switch member.joinedVia {
        case "first": localized("joined {{day}} as the first account", ["day": day])
        case "invitation":
            member.invitedBy.map { localized("joined {{day}} by invitation from {{name}}", ["day": day, "name": $0]) }
                ?? localized("joined {{day}} by invitation", ["day": day])
        case "sign_up": localized("joined {{day}} on the open sign-up page, without an invitation", ["day": day])
        case "command": localized("joined {{day}} from the server's command line", ["day": day])
        default: localized("joined {{day}}", ["day": day])
        }
    }
}

/// `household/remove`: asks before a member and everything of theirs is deleted.
struct RemoveMemberPage: Sendable {
    let chrome: PageChrome
    let displayName: String
    let username: String
    let bookCount: Int
    /// "12 books", for the sentence that says what goes.
    let books: String
    let formPath: String
    let passwordPath: String
    let error: String?

    init(context: SignedInContext, member: HouseholdStore.Member, error: String?) {
        chrome = PageChrome(
            title: localized("Remove {{name}}?", ["name": member.displayName]), context: context, tab: .profile)
        displayName = member.displayName
        username = member.username
        bookCount = member.bookCount
        books = localized(one: "{{count}} book", other: "{{count}} books", count: member.bookCount)
        formPath = Paths.householdMemberRemove(member.id)
        passwordPath = Paths.householdMemberPassword(member.id)
        self.error = error
    }
}

/// `household/hand-over`: asks before the admin role goes to another member.
struct HandOverPage: Sendable {
    let chrome: PageChrome
    let name: String
    let formPath: String
    let keepPath: String
}

/// `household/checks`: the doctor's checks, problems first.
struct ServerChecksPage: Sendable {
    struct Item: Sendable {
        let name: String
        let label: String
        let detail: String
        let fix: String?
        let isProblem: Bool
        let isWarning: Bool
    }

    let chrome: PageChrome
    let items: [Item]
    let summary: String

    init(context: SignedInContext, checks: [Doctor.Check]) {
        chrome = PageChrome(title: localized("Check this server"), context: context, tab: .profile)
        let order: [Doctor.Check.Status: Int] = [.problem: 0, .warning: 1, .ok: 2]
        items = checks.enumerated().sorted {
            (order[$0.element.status] ?? 2, $0.offset) < (order[$1.element.status] ?? 2, $1.offset)
        }.map { _, check in
            let label =
                switch check.status {
                case .ok: localized("All right")
                case .warning: localized("Worth a look")
                case .problem: localized("Needs action")
                }
            return Item(
                name: check.name, label: label,
                detail: check.detail, fix: check.fix, isProblem: check.status == .problem,
                isWarning: check.status == .warning)
        }
        let problems = checks.filter { $0.status == .problem }.count
        let warnings = checks.filter { $0.status == .warning }.count
        summary =
            problems > 0
            ? localized(one: "{{count}} thing needs action.", other: "{{count}} things need action.", count: problems)
            : warnings > 0
                ? localized(
                    one: "Nothing needs action; {{count}} thing is worth a look.",
                    other: "Nothing needs action; {{count}} things are worth a look.", count: warnings)
                : localized("Everything is all right.")
    }
}
