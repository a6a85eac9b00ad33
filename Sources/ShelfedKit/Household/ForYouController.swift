import Foundation
import Hummingbird

/// GET /for-you: what waits for the person (`ForYouStore`); POST /for-you/seen marks it seen.
struct ForYouController: Sendable {
    let store: ForYouStore
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.forYou.routerPath, use: show)
        router.post(Route.forYouSeen.routerPath, use: markSeen)
    }

    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let waiting = try await store.waiting(for: context.userID, now: clock.now())
        var page = ForYouPage(waiting, context: context, today: clock.today())
        page.chrome.toast = ActionNotice.saved(
            FormFields(urlEncoded: request.uri.query ?? "")["saved"] ?? "", dismiss: Paths.forYou)
        return try renderer.render(page, template: "household/for-you")
    }

    @Sendable func markSeen(_ request: Request, context: SignedInContext) async throws -> Response {
        try await store.markSeen(for: context.userID, now: clock.now())
        return .seeOther(ActionNotice.link(Paths.forYou, adding: [("saved", "for-you-seen")]))
    }
}

/// `household/for-you`.
struct ForYouPage: Sendable {
    struct Line: Sendable {
        let lead: String
        let title: String
        let path: String?
        let after: String
        let isNew: Bool
        /// A form's action and its buttons, for what can be answered here.
        let answerPath: String?
        let dismissPath: String?
    }

    var chrome: PageChrome
    let requests: [Line]
    let recommendations: [Line]
    let answers: [Line]
    let challenge: String?
    let together: [Line]
    let isEmpty: Bool
    let returnTo: String

    init(_ waiting: ForYouStore.Waiting, context: SignedInContext, today: String) {
        chrome = PageChrome(title: "For you", context: context, tab: .feed)
        returnTo = Paths.forYou
        requests = waiting.requests.map { request in
            Line(
                lead: "\(request.requester) asks to borrow", title: request.title, path: Paths.book(request.bookID),
                after: "", isNew: false, answerPath: Paths.borrowAnswer(request.id), dismissPath: nil)
        }
        recommendations = waiting.recommendations.map { received in
            Line(
                lead: "\(received.from) recommends", title: received.title,
                path: received.recipientBookID.map(Paths.book) ?? received.bookID.map(Paths.houseBook),
                after: received.note.map { ": “\($0)”" } ?? "", isNew: waiting.newRecommendations.contains(received.id),
                answerPath: nil, dismissPath: Paths.recommendationDismiss(received.id))
        }
        answers = waiting.answers.map { answer in
            Line(
                lead: answer.lent ? "\(answer.owner) lent you" : "\(answer.owner) declined to lend",
                title: answer.title, path: nil, after: answer.lent ? ". Enjoy it." : ".", isNew: answer.isNew,
                answerPath: nil, dismissPath: nil)
        }
        challenge = waiting.challenge.map { challenge in
            let goal = challenge.measure == "pages" ? "\(challenge.goal.grouped) pages" : "\(challenge.goal) books"
            return "\(challenge.setBy ?? "Someone") set the house reading challenge for \(challenge.year): \(goal)."
        }
        together = waiting.together.map { offer in
            Line(
                lead: ["\(offer.from) watched", Self.episodesWords(offer)].filter { !$0.isEmpty }.joined(
                    separator: " "),
                title: offer.title,
                path: offer.recipientBookID.map(Paths.book),
                after: " with you, \(HumanDay.text(offer.day, today: today)).", isNew: false,
                answerPath: Paths.togetherAnswer(offer.id), dismissPath: nil)
        }
        isEmpty = waiting.isEmpty
    }

    /// "S2E3 of", "3 episodes (up to S2E5) of" — what of a show was watched; nothing for a film.
    static func episodesWords(_ offer: WatchedTogetherStore.Waiting) -> String {
        guard offer.kind == .show, let last = offer.episodes.last else { return "" }
        let name = HouseholdSharing.EpisodeDay.name(last / 100_000, last % 100_000)
        return offer.episodes.count == 1 ? "\(name) of" : "\(offer.episodes.count) episodes (up to \(name)) of"
    }
}
