import Foundation
import Hummingbird

/// The profile tab: who the user is and how their shelves add up.
struct ProfileController: Sendable {
    let library: LibraryStore
    let renderer: PageRenderer

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get("/profile", use: show)
    }

    /// GET /profile
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let user = try context.requireUser()
        let counts = try await library.counts(of: user.id!)
        let page = ProfilePage(
            chrome: PageChrome(title: "Profile", context: context, tab: .profile),
            displayName: user.displayName, username: user.username,
            memberSince: user.createdAt.formatted(.dateTime.year().month(.wide).day()),
            wantToRead: counts[.wantToRead], reading: counts[.reading], read: counts[.read],
            favourites: counts.favourites)
        return try renderer.render(page, template: "profile/show")
    }
}

/// `profile/show`
struct ProfilePage: Sendable {
    let chrome: PageChrome
    let displayName: String
    let username: String
    let memberSince: String
    let wantToRead: Int
    let reading: Int
    let read: Int
    let favourites: Int
}
