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
        chrome = PageChrome(title: "Your household", context: context, tab: .profile)
        let day = Date.FormatStyle.dateTime.year().month(.wide).day()
        self.members = members.map { member in
            let books = "\(member.bookCount) \(member.bookCount == 1 ? "book" : "books")"
            let how = Self.howJoined(member)
            return MemberItem(
                displayName: member.displayName, username: member.username,
                summary: "@\(member.username) · joined \(member.joined.formatted(day))\(how) · \(books)",
                isAdmin: member.isAdmin, isYou: member.id == context.userID,
                passwordPath: Paths.householdMemberPassword(member.id),
                removePath: Paths.householdMemberRemove(member.id), adminPath: Paths.householdMemberAdmin(member.id))
        }
        self.invitations = invitations.map { invitation in
            InvitationItem(
                note: invitation.note ?? "No note", expires: "Until \(invitation.expiresAt.formatted(day))",
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
    /// " by invitation from Alice", " on the open sign-up page", …; empty for accounts from before issue 35.
    static func howJoined(_ member: HouseholdStore.Member) -> String {
        switch member.joinedVia {
        case "first": " as the first account"
        case "invitation": member.invitedBy.map { " by invitation from \($0)" } ?? " by invitation"
        case "sign_up": " on the open sign-up page, without an invitation"
        case "command": " from the server's command line"
        default: ""
        }
    }
}

/// `household/remove`: asks before a member and everything of theirs is deleted.
struct RemoveMemberPage: Sendable {
    let chrome: PageChrome
    let displayName: String
    let username: String
    let bookCount: Int
    let formPath: String
    let passwordPath: String
    let error: String?

    init(context: SignedInContext, member: HouseholdStore.Member, error: String?) {
        chrome = PageChrome(title: "Remove \(member.displayName)?", context: context, tab: .profile)
        displayName = member.displayName
        username = member.username
        bookCount = member.bookCount
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
        chrome = PageChrome(title: "Check this server", context: context, tab: .profile)
        let order: [Doctor.Check.Status: Int] = [.problem: 0, .warning: 1, .ok: 2]
        items = checks.enumerated().sorted {
            (order[$0.element.status] ?? 2, $0.offset) < (order[$1.element.status] ?? 2, $1.offset)
        }.map { _, check in
            Item(
                name: check.name,
                label: ["ok": "All right", "warning": "Worth a look", "problem": "Needs action"][check.status.rawValue]
                    ?? "",
                detail: check.detail, fix: check.fix, isProblem: check.status == .problem,
                isWarning: check.status == .warning)
        }
        let problems = checks.filter { $0.status == .problem }.count
        let warnings = checks.filter { $0.status == .warning }.count
        summary =
            problems > 0
            ? "\(problems) \(problems == 1 ? "thing needs" : "things need") action."
            : warnings > 0
                ? "Nothing needs action; \(warnings) \(warnings == 1 ? "thing is" : "things are") worth a look."
                : "Everything is all right."
    }
}
