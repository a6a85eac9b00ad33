import Foundation
import Hummingbird

/// The admin's page (issue 25): the members, invitations shown once and revocable, a one-time link for a member who
/// forgot their password, whether anyone may sign up without an invitation, removing a member (after asking; their
/// data is theirs to download, never the admin's) and handing the admin role on. Anyone but the admin gets a 404, as
/// for a page that does not exist.
struct HouseholdController: Sendable {
    let household: HouseholdStore
    let users: UserStore
    let media: MediaStore
    let imports: ImportStore
    let renderer: PageRenderer
    let clock: AppClock
    /// `SHELFED_REGISTRATION=open` opens sign-up whatever the admin's switch says; the page tells them so.
    let registration: AppConfig.Registration
    /// `shelfed doctor`'s checks, shown to the admin as a page.
    let doctor: Doctor
    /// The address the house types (`SHELFED_PUBLIC_URL`, else the server's `.local` name when it listens on the
    /// network), for links the admin sends: not whatever address the admin's own browser used (127.0.0.1 on the
    /// server itself). nil: the server listens on this computer only, or found no address of its own.
    let houseURL: String?
    /// `SHELFED_HOST` is a loopback address: nobody else can reach the server, whatever its addresses.
    var listensLocallyOnly = false

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.household.routerPath, use: index)
        router.post(Route.householdInvitations.routerPath, use: invite)
        router.post(Route.householdInvitationRevoke.routerPath, use: revoke)
        router.post(Route.householdMemberPassword.routerPath, use: passwordLink)
        router.get(Route.householdMemberRemove.routerPath, use: confirmRemove)
        router.post(Route.householdMemberRemove.routerPath, use: remove)
        router.post(Route.householdSignUp.routerPath, use: setSignUp)
        router.get(Route.householdChecks.routerPath, use: checks)
        router.get(Route.householdMemberAdmin.routerPath, use: confirmHandOver)
        router.post(Route.householdMemberAdmin.routerPath, use: handOver)
    }

    /// GET /household
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await requireAdmin(context)
        var page = try await page(context)
        let saved = FormFields(urlEncoded: request.uri.query ?? "")["saved"]
        page.chrome.toast = saved.flatMap { ActionNotice.saved($0, dismiss: Paths.household) }
        return try renderer.render(page, template: "household/index")
    }

    /// POST /household/invitations (`note`, `days`): the page again, with the link shown this once.
    @Sendable func invite(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        var request = request
        let form = try await request.formFields()
        let note = form.trimmed("note")
        let days = form["days"].flatMap { Int($0) }
        var errors = FieldErrors()
        if let note, note.count > HouseholdStore.maxNoteLength || NewBookForm.hasControlCharacters(note) {
            errors["note"] = localized("Keep the note to a name or a few words (100 characters at most).")
        }
        guard let days, HouseholdStore.invitationLifetimes.contains(where: { $0.days == days }) else {
            errors["days"] = localized("Choose how long the link lasts: 1, 7 or 30 days.")
            return try await refused(context, typedNote: note, errors: errors)
        }
        guard errors.isEmpty else { return try await refused(context, typedNote: note, errors: errors) }
        do {
            let token = try await household.invite(by: context.userID, note: note, days: days, now: clock.now())
            var page = try await page(context)
            let to =
                note.map { localized("Send this link to {{name}}.", ["name": $0]) }
                ?? localized("Send this link to the person joining.")
            let lasts = localized(
                one: "It works once, for {{count}} day, and is shown only now: copy it before leaving this page.",
                other: "It works once, for {{count}} days, and is shown only now: copy it before leaving this page.",
                count: days)
            page.newLink = HouseholdPage.NewLink(
                url: link(Paths.join(token), request: request), message: to + " " + lasts)
            return try renderer.render(page, template: "household/index", status: .created).response
        } catch HouseholdStore.Refusal.tooManyOpen {
            errors["note"] = localized(
                "There are {{count}} open invitations already. Revoke some you no longer need.",
                ["count": String(HouseholdStore.maxOpenInvitations)])
            return try await refused(context, typedNote: note, errors: errors)
        }
    }

    /// POST /household/invitations/:invitationID/revoke
    @Sendable func revoke(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        guard let id = BoundedNumber.id(context.parameters.get("invitationID")),
            try await household.revokeInvitation(id, now: clock.now())
        else {
            throw AppError.notFound(
                localized("There is no such open invitation. It may have been used or revoked already."))
        }
        return .seeOther(ActionNotice.link(Paths.household, adding: [("saved", "invitation-revoked")]))
    }

    /// POST /household/members/:memberID/password-link: a one-time link to set a new password, shown once.
    @Sendable func passwordLink(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        let member = try await requireMember(context)
        let token = try await household.passwordLink(for: member.id, now: clock.now())
        var page = try await page(context)
        page.newLink = HouseholdPage.NewLink(
            url: link(Paths.passwordReset(token), request: request),
            message: localized("Give this link to {{name}}.", ["name": member.displayName]) + " "
                + localized("It lets them choose a new password once, within a day, and is shown only now.") + " "
                + localized("Their old password keeps working until they do."))
        return try renderer.render(page, template: "household/index", status: .created).response
    }

    /// GET /household/members/:memberID/remove: asks first, offering their data as a download.
    @Sendable func confirmRemove(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await requireAdmin(context)
        let member = try await requireOther(context)
        return try renderer.render(
            RemoveMemberPage(context: context, member: member, error: nil), template: "household/remove")
    }

    /// GET /household/checks: `shelfed doctor`'s checks, each with what to do about a problem (issue 35: they were
    /// JSON at `/health?detail=1`, linked from nowhere).
    @Sendable func checks(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await requireAdmin(context)
        var inside = doctor
        inside.ownMemory = true
        let checks = await inside.run()
        return try renderer.render(ServerChecksPage(context: context, checks: checks), template: "household/checks")
    }

    /// POST /household/sign-up (`open` = 1 or 0): whether anyone who reaches the server may make an account.
    @Sendable func setSignUp(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        var request = request
        let open = try await request.formFields()["open"] == "1"
        try await household.setSignUp(open: open, now: clock.now())
        context.logger.info("The admin \(open ? "opened" : "closed") sign-up")
        return .seeOther(
            ActionNotice.link(Paths.household, adding: [("saved", open ? "sign-up-open" : "sign-up-closed")]))
    }

    /// POST /household/members/:memberID/remove (`confirm_username`)
    @Sendable func remove(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        let member = try await requireOther(context)
        var request = request
        guard try await request.formFields()["confirm_username"] == member.username else {
            let page = RemoveMemberPage(
                context: context, member: member,
                error: localized("Type their username, {{username}}, to confirm.", ["username": member.username]))
            return try renderer.render(page, template: "household/remove", status: .unprocessableContent).response
        }
        let importFiles = try await imports.files(of: member.id)
        try await users.delete(id: member.id)
        imports.remove(importFiles)
        media.removeAll(of: member.id)
        context.logger.info("The admin removed the account \(member.username)")
        return .seeOther(ActionNotice.link(Paths.household, adding: [("saved", "member-removed")]))
    }

    /// GET /household/members/:memberID/admin: asks before handing the role on.
    @Sendable func confirmHandOver(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await requireAdmin(context)
        let member = try await requireOther(context)
        return try renderer.render(
            HandOverPage(
                chrome: PageChrome(
                    title: localized("Make {{name}} the admin?", ["name": member.displayName]), context: context,
                    tab: .profile),
                name: member.displayName, formPath: Paths.householdMemberAdmin(member.id),
                keepPath: Paths.household),
            template: "household/hand-over")
    }

    /// POST /household/members/:memberID/admin
    @Sendable func handOver(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        let member = try await requireOther(context)
        guard try await household.handAdmin(from: context.userID, to: member.id) else {
            throw AppError.conflict(localized("The admin role could not be handed on: reload the page and try again."))
        }
        return .seeOther(ActionNotice.link(Paths.profileEdit, adding: [("saved", "admin-handed")]))
    }

    // MARK: - Helpers

    private func page(_ context: SignedInContext) async throws -> HouseholdPage {
        var page = HouseholdPage(
            context: context, members: try await household.members(),
            invitations: try await household.openInvitations(now: clock.now()),
            signUp: registration == .open ? .openBySetting : try await household.signUpIsOpen() ? .open : .closed,
            now: clock.now())
        if houseURL == nil {
            page.addressNote = listensLocallyOnly ? Self.localOnlyNote : Self.noAddressNote
        }
        return page
    }

    /// Why links made here work only on this computer.
    private static var localOnlyNote: String {
        let here = localized(
            "Shelfed listens on this computer only (SHELFED_HOST=127.0.0.1), so links work only here.")
        let send = localized(
            "To send them to the house, start it with SHELFED_HOST=0.0.0.0, or set SHELFED_PUBLIC_URL.")
        return here + " " + send
    }

    /// Why links made here carry the address in the admin's browser.
    private static var noAddressNote: String {
        let found = localized(
            "Shelfed found no address of this computer on the home network, so links use the address in your browser.")
        let advice = localized(
            "Set SHELFED_PUBLIC_URL to the address the house types (such as http://bookshelf.local:8080).")
        return found + " " + advice
    }

    private func refused(_ context: SignedInContext, typedNote: String?, errors: FieldErrors) async throws
        -> Response
    {
        var page = try await page(context)
        page.noteValue = typedNote ?? ""
        page.noteError = errors["note"]
        page.daysError = errors["days"]
        return try renderer.render(page, template: "household/index", status: .unprocessableContent).response
    }

    private func requireAdmin(_ context: SignedInContext) async throws {
        guard try await users.isAdmin(context.userID) else {
            throw AppError.notFound(nil)
        }
    }

    private func requireMember(_ context: SignedInContext) async throws -> HouseholdStore.Member {
        guard let id = BoundedNumber.id(context.parameters.get("memberID")),
            let member = try await household.member(id)
        else { throw AppError.notFound(localized("There is no such member. They may have been removed.")) }
        return member
    }

    /// A member other than the admin themself: the admin leaves only by handing the role on first.
    private func requireOther(_ context: SignedInContext) async throws -> HouseholdStore.Member {
        let member = try await requireMember(context)
        guard member.id != context.userID else {
            let handOn = localized(
                "Hand the role to another member first; then they can remove you, or you can delete your own account from Profile → Settings."
            )
            throw AppError.conflict(localized("You are the household's admin.") + " " + handOn)
        }
        return member
    }

    /// A link to send to someone in the house: from the house's address, else as the admin's browser reached the
    /// server ("http://pi.local:8080/join/…").
    func link(_ path: String, request: Request) -> String {
        houseURL.map { $0 + path } ?? Self.absolute(path, request: request)
    }

    /// A link as the admin's browser reached the server.
    static func absolute(_ path: String, request: Request) -> String {
        let host = request.head.authority ?? "localhost:8080"
        let safeHost = host.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x3C && $0 != 0x3E }
        return "http://\(safeHost ? host : "localhost:8080")\(path)"
    }
}
