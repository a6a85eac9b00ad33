import Mustache

/// What the shared layout needs on every page: who is signed in, the CSRF token and the active tab.
public struct PageChrome: Sendable {
    public enum Tab: Sendable { case feed, shelves, favourites, profile, none }

    let title: String
    let csrfToken: String
    let userDisplayName: String?
    let isFeed: Bool
    let isShelves: Bool
    let isFavourites: Bool
    let isProfile: Bool
    let notice: String?
    /// What the last action did, with Undo where it can be undone (`ActionNotice`), kept in view at the bottom.
    var toast: HTMLFragment?
    /// What the header's search field shows: the question on the search page, empty elsewhere.
    var searchQuery = ""
    /// "For you" in the header: how many things wait, and the words a screen reader says for it.
    let waiting: Int
    let hasWaiting: Bool
    let waitingLabel: String

    init(title: String, context: some PageContext, tab: Tab = .none, notice: String? = nil) {
        self.title = title
        self.csrfToken = context.csrfToken
        self.userDisplayName = context.signedInName
        self.isFeed = tab == .feed
        self.isShelves = tab == .shelves
        self.isFavourites = tab == .favourites
        self.isProfile = tab == .profile
        self.notice = notice
        waiting = context.waitingForYou
        hasWaiting = waiting > 0
        waitingLabel =
            waiting == 0
            ? localized("For you: nothing waiting")
            : localized(
                one: "For you: {{count}} thing waiting", other: "For you: {{count}} things waiting", count: waiting)
    }
}

extension PageChrome: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "csrfToken": csrfToken
        case "userDisplayName": userDisplayName
        case "isFeed": isFeed
        case "isShelves": isShelves
        case "isFavourites": isFavourites
        case "isProfile": isProfile
        case "notice": notice
        case "toast": toast
        case "searchQuery": searchQuery
        case "waiting": waiting
        case "hasWaiting": hasWaiting
        case "waitingLabel": waitingLabel
        default: nil
        }
    }
}
