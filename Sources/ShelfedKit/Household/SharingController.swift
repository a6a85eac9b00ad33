import Foundation
import Hummingbird

/// Sharing with the household (issue 25): the switch in profile settings, and the house feed's own page.
struct SharingController: Sendable {
    let sharing: HouseholdSharing
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.profileSharing.routerPath, use: setSharing)
        router.get(Route.houseFeed.routerPath, use: feed)
    }

    /// POST /profile/sharing (`shares`: 1 when ticked)
    @Sendable func setSharing(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let shares = try await request.formFields()["shares"] == "1"
        try await sharing.setSharing(shares, for: context.userID)
        return .seeOther(Paths.profileEdit + "?saved=" + (shares ? "sharing-on" : "sharing-off") + "#sharing-heading")
    }

    /// GET /house/feed?page=
    @Sendable func feed(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let page = query["page"].flatMap { BoundedNumber.parse($0, in: 1...HouseholdSharing.maxFeedPage) } ?? 1
        let section = HouseFeedSection(
            try await sharing.feed(for: context.userID, page: page), page: page,
            viewerShares: try await sharing.isSharing(context.userID), today: clock.today())
        let previous = page > 1 ? Paths.houseFeed + (page == 2 ? "" : "?page=\(page - 1)") : nil
        return try renderer.render(
            HouseFeedPage(
                chrome: PageChrome(title: localized("In the house"), context: context, tab: .feed), feed: section,
                previousPath: previous),
            template: "household/feed")
    }
}
