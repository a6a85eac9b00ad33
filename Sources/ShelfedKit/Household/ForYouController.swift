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
        chrome = PageChrome(title: localized("For you"), context: context, tab: .feed)
        returnTo = Paths.forYou
        requests = waiting.requests.map { request in
            let (lead, after) = HouseSentence.around(
                localized("{{name}} asks to borrow {{title}}"), ["name": request.requester])
            return Line(
                lead: lead, title: request.title, path: Paths.book(request.bookID), after: after, isNew: false,
                answerPath: Paths.borrowAnswer(request.id), dismissPath: nil)
        }
        recommendations = waiting.recommendations.map { received in
            let sentence =
                received.note == nil
                ? localized("{{name}} recommends {{title}}") : localized("{{name}} recommends {{title}}: “{{note}}”")
            let (lead, after) = HouseSentence.around(sentence, ["name": received.from, "note": received.note ?? ""])
            return Line(
                lead: lead, title: received.title,
                path: received.recipientBookID.map(Paths.book) ?? received.bookID.map(Paths.houseBook),
                after: after, isNew: waiting.newRecommendations.contains(received.id),
                answerPath: nil, dismissPath: Paths.recommendationDismiss(received.id))
        }
        answers = waiting.answers.map { answer in
            let sentence =
                answer.lent
                ? localized("{{name}} lent you {{title}}. Enjoy it.")
                : localized("{{name}} declined to lend {{title}}.")
            let (lead, after) = HouseSentence.around(sentence, ["name": answer.owner])
            return Line(
                lead: lead, title: answer.title, path: nil, after: after, isNew: answer.isNew, answerPath: nil,
                dismissPath: nil)
        }
        challenge = waiting.challenge.map { challenge in
            let measure = HouseChallengeStore.Measure(rawValue: challenge.measure) ?? .books
            let sentence =
                challenge.setBy == nil
                ? localized("Someone set the house reading challenge for {{year}}: {{goal}}.")
                : localized("{{name}} set the house reading challenge for {{year}}: {{goal}}.")
            return HouseSentence.fill(
                sentence,
                ["name": challenge.setBy ?? "", "year": String(challenge.year), "goal": measure.amount(challenge.goal)])
        }
        together = waiting.together.map { offer in
            let (lead, after) = HouseSentence.around(
                Self.watchedWords(offer),
                ["name": offer.from, "day": HumanDay.text(offer.day, today: today)])
            return Line(
                lead: lead, title: offer.title, path: offer.recipientBookID.map(Paths.book), after: after,
                isNew: false, answerPath: Paths.togetherAnswer(offer.id), dismissPath: nil)
        }
        isEmpty = waiting.isEmpty
    }

    /// "{{name}} watched S2E3 of {{title}} with you, {{day}}.", "… 3 episodes (up to S2E5) of …": what of a show
    /// was watched, or the film.
    static func watchedWords(_ offer: WatchedTogetherStore.Waiting) -> String {
        guard offer.kind == .show, let last = offer.episodes.last else {
            return localized("{{name}} watched {{title}} with you, {{day}}.")
        }
        let name = HouseholdSharing.EpisodeDay.name(last / 100_000, last % 100_000)
        if offer.episodes.count == 1 {
            return HouseSentence.fill(
                localized("{{name}} watched {{episode}} of {{title}} with you, {{day}}."), ["episode": name])
        }
        return HouseSentence.fill(
            localized(
                one: "{{name}} watched {{count}} episode (up to {{episode}}) of {{title}} with you, {{day}}.",
                other: "{{name}} watched {{count}} episodes (up to {{episode}}) of {{title}} with you, {{day}}.",
                count: offer.episodes.count),
            ["episode": name])
    }
}
