import Foundation
import Hummingbird

/// Account settings: display name and email, password, and deleting the account.
struct ProfileSettingsController: Sendable {
    let users: UserStore
    let household: HouseholdStore
    let sharing: HouseholdSharing
    let hasher: PasswordHasher
    let media: MediaStore
    let imports: ImportStore
    let renderer: PageRenderer
    /// The scheduled backups' state, shown to the admin.
    var backups: BackupStatus? = nil
    /// Takes a backup when the admin asks ("Back up now").
    var backupRunner: ScheduledBackups? = nil

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.profileEdit.routerPath, use: edit)
        router.post(Route.profileEdit.routerPath, use: update)
        router.post(Route.profilePassword.routerPath, use: changePassword)
        router.post(Route.profileDelete.routerPath, use: delete)
        router.post(Route.serverBackupNow.routerPath, use: backUpNow)
    }

    /// POST /profile/backup/now: the admin's "Back up now"; the settings page says when it is done.
    @Sendable func backUpNow(_ request: Request, context: SignedInContext) async throws -> Response {
        guard try await users.isAdmin(context.userID), let backupRunner else { throw AppError.notFound(nil) }
        backupRunner.backUpNow()
        return .seeOther(Paths.profileEdit + "?saved=backup-started#backups-heading")
    }

    /// GET /profile/edit
    @Sendable func edit(_ request: Request, context: SignedInContext) async throws -> HTML {
        let user = context.user
        let saved = request.uri.queryParameters["saved"].map(String.init)
        let notice =
            switch saved {
            case "password": localized("Password changed. Other devices have been signed out.")
            case "admin-handed": localized("You handed the admin role on; you are a member of the household now.")
            case "sharing-on": localized("You share your reading with the household now.")
            case "sharing-off": localized("You no longer share your reading: the household sees none of it.")
            case "backup-started":
                localized("Backing up now.") + " " + localized("It is written and checked in the background:") + " "
                    + localized("reload this page in a minute to see it under Last good backup.")
            default: String?.none
            }
        var page = EditProfilePage(context: context, user: user, notice: notice)
        page.isAdmin = try await users.isAdmin(user.id)
        page.sharesReading = try await sharing.isSharing(context.userID)
        if page.isAdmin, let backups {
            page.backups = try await backups.section()
            page.backupRunning = backupRunner?.requests.isBusy ?? false
        }
        return try renderer.render(page, template: "profile/edit")
    }

    /// POST /profile/edit (`display_name`, `email`)
    @Sendable func update(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let user = context.user
        // The register form's rules for the two fields the profile can change.
        let form = try await request.decodeForm(RegistrationForm.self)
        var errors = form.validate().filter { $0.key == "display_name" || $0.key == "email" }
        if errors.isEmpty {
            do {
                try await users.updateProfile(
                    id: context.userID, displayName: form.displayName,
                    email: RegistrationForm.storedEmail(form.email, username: context.user.username))
                return .seeOther(ActionNotice.link(Paths.profile, adding: [("saved", "profile")]))
            } catch UserStore.Conflict.email {
                errors["email"] = localized("Another account uses this email.")
            }
        }
        var page = EditProfilePage(context: context, user: user)
        page.isAdmin = try await users.isAdmin(user.id)
        page.sharesReading = try await sharing.isSharing(context.userID)
        page.displayName = form.displayName
        page.email = form.email
        page.displayNameError = errors["display_name"]
        page.emailError = errors["email"]
        return try renderer.render(page, template: "profile/edit", status: .unprocessableContent).response
    }

    /// POST /profile/password (`current_password`, `new_password`): signs out every other session.
    @Sendable func changePassword(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let user = context.user
        let form = try await request.decodeForm(PasswordForm.self)
        var page = EditProfilePage(context: context, user: user)
        page.isAdmin = try await users.isAdmin(user.id)
        page.sharesReading = try await sharing.isSharing(context.userID)
        if !(try await hasher.verify(form.current, against: user.passwordHash)) {
            page.currentPasswordError = localized("That is not your current password.")
        } else if let problem = RegistrationForm.passwordProblem(form.new) {
            page.newPasswordError = problem
        } else {
            let hash = try await hasher.hash(form.new)
            let currentSession = request.cookies["shelfed_session"].map { "hbs." + $0.value }
            try await users.updatePassword(id: context.userID, hash: hash, keepingSession: currentSession)
            return .seeOther(Paths.profileEdit + "?saved=password")
        }
        return try renderer.render(page, template: "profile/edit", status: .unprocessableContent).response
    }

    /// POST /profile/delete (`confirm_username` must be the username): removes every row and file of the user.
    @Sendable func delete(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let user = context.user
        // The admin of a household with other members hands the role on first: a house is never left without one.
        guard try await household.mayLeave(context.userID) else {
            throw AppError.conflict(localized("You are the household's admin.") + " " + Self.handOverFirst)
        }
        guard try await request.decodeForm(DeleteAccountForm.self).confirmUsername == user.username else {
            var page = EditProfilePage(context: context, user: user)
            page.isAdmin = try await users.isAdmin(user.id)
            page.sharesReading = try await sharing.isSharing(context.userID)
            page.deleteError = localized("Type your username, {{username}}, to confirm.", ["username": user.username])
            return try renderer.render(page, template: "profile/edit", status: .unprocessableContent).response
        }
        let importFiles = try await imports.files(of: context.userID)
        do {
            try await users.delete(id: context.userID)
        } catch is UserStore.AdminMustHandOver {
            // Made the admin between the check above and now.
            throw AppError.conflict(
                localized("You have just been made the household's admin.") + " " + Self.handOverFirst)
        }
        imports.remove(importFiles)
        media.removeAll(of: context.userID)
        context.sessions.clearSession()
        context.logger.info("Deleted account \(user.username)")
        return .seeOther(Paths.login())
    }

    /// What an admin does before deleting their account.
    private static var handOverFirst: String {
        localized("Open Your household and make another member the admin first; then you can delete your account.")
    }
}

/// `profile/edit`
struct EditProfilePage: Sendable {
    let chrome: PageChrome
    let username: String
    var displayName: String
    var email: String
    var displayNameError: String?
    var emailError: String?
    var currentPasswordError: String?
    var newPasswordError: String?
    var deleteError: String?
    /// The household's first account may download the whole server's backup.
    var isAdmin = false
    var sharesReading = false
    /// How the server's own backups stand (the admin's only).
    var backups: BackupStatus.Section?
    /// A backup is being written now (asked for by the admin, or on schedule).
    var backupRunning = false
    let backupNowPath = Paths.serverBackupNow
    /// The language choices, the person's own selected ("as the browser asks" when they chose none).
    let languages: [LanguageChoice]

    init(context: some PageContext, user: User, notice: String? = nil) {
        chrome = PageChrome(title: localized("Edit profile"), context: context, tab: .profile, notice: notice)
        username = user.username
        displayName = user.displayName
        email = RegistrationForm.shownEmail(user.email)
        languages = LanguageChoice.all(chosen: user.language)
    }
}
