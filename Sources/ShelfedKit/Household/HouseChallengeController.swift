import Foundation
import Hummingbird

/// The admin sets, changes or removes this year's house reading challenge (issue 25); home and profile show it.
struct HouseChallengeController: Sendable {
    let challenges: HouseChallengeStore
    let users: UserStore
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.houseChallenge.routerPath, use: edit)
        router.post(Route.houseChallenge.routerPath, use: save)
    }

    /// GET /household/challenge
    @Sendable func edit(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await requireAdmin(context)
        let year = currentYear
        let current = try await challenges.challenge(of: year)
        return try renderer.render(
            HouseChallengePage(
                context: context, year: year, measure: current?.measure ?? .books,
                goalValue: current.map { String($0.goal) } ?? "", isSet: current != nil),
            template: "household/challenge")
    }

    /// POST /household/challenge (`measure`: books or pages, `goal`; or `action=remove`)
    @Sendable func save(_ request: Request, context: SignedInContext) async throws -> Response {
        try await requireAdmin(context)
        var request = request
        let form = try await request.formFields()
        let year = currentYear
        if form["action"] == "remove" {
            try await challenges.remove(year: year)
            return .seeOther(ActionNotice.link(Paths.household, adding: [("saved", "challenge-removed")]))
        }
        let measure = form["measure"].flatMap(HouseChallengeStore.Measure.init(rawValue:)) ?? .books
        let typed = form.trimmed("goal") ?? ""
        guard let goal = BoundedNumber.parse(typed, in: 1...measure.maxGoal) else {
            let most = measure.maxGoal.grouped
            let goalError =
                measure == .books
                ? localized("Give the goal as a whole number of books from 1 to {{max}}, such as 50.", ["max": most])
                : localized("Give the goal as a whole number of pages from 1 to {{max}}, such as 15000.", ["max": most])
            let page = HouseChallengePage(
                context: context, year: year, measure: measure, goalValue: typed,
                isSet: try await challenges.challenge(of: year) != nil, goalError: goalError)
            return try renderer.render(page, template: "household/challenge", status: .unprocessableContent).response
        }
        try await challenges.set(.init(year: year, measure: measure, goal: goal), by: context.userID, now: clock.now())
        return .seeOther(ActionNotice.link(Paths.home, adding: [("saved", "challenge")]) + "#challenge-heading")
    }

    private var currentYear: Int { Int(clock.today().prefix(4)) ?? 2026 }

    private func requireAdmin(_ context: SignedInContext) async throws {
        guard try await users.isAdmin(context.userID) else { throw AppError.notFound(nil) }
    }
}

/// `household/challenge`: the admin's form for this year's house challenge.
struct HouseChallengePage: Sendable {
    struct Choice: Sendable {
        let value: String
        let label: String
        let checked: Bool
    }

    let chrome: PageChrome
    let year: Int
    let measures: [Choice]
    let goalValue: String
    let goalError: String?
    let isSet: Bool
    let formPath = Paths.houseChallenge

    init(
        context: SignedInContext, year: Int, measure: HouseChallengeStore.Measure, goalValue: String, isSet: Bool,
        goalError: String? = nil
    ) {
        chrome = PageChrome(
            title: localized("House reading challenge {{year}}", ["year": String(year)]), context: context,
            tab: .profile)
        self.year = year
        measures = HouseChallengeStore.Measure.allCases.map {
            Choice(
                value: $0.rawValue, label: $0 == .books ? localized("Books") : localized("Pages"),
                checked: $0 == measure)
        }
        self.goalValue = goalValue
        self.goalError = goalError
        self.isSet = isSet
    }
}

/// This year's house challenge as home and profile show it: the shared total, a bar, and each sharing member's part.
struct HouseChallengeSection: Sendable {
    struct Member: Sendable {
        let name: String
        let amount: String
        let isYou: Bool
    }

    let year: Int
    let summary: String
    let goal: Int
    let total: Int
    let percent: Int
    let members: [Member]
    /// Whether the viewer's reading counts: only when they share it.
    let viewerTakesPart: Bool
    let settingsPath = Paths.profileEdit + "#sharing-heading"
    /// The admin's way to change it.
    let editPath: String?

    init(_ progress: HouseChallengeStore.Progress, viewer: Int64, viewerIsAdmin: Bool) {
        let challenge = progress.challenge
        year = challenge.year
        goal = challenge.goal
        total = progress.total
        percent = min(100, progress.total * 100 / max(1, challenge.goal))
        let values: KeyValuePairs<String, String> = [
            "amount": challenge.measure.amount(progress.total), "goal": challenge.goal.grouped,
        ]
        summary =
            progress.total >= challenge.goal
            ? localized("{{amount}} of {{goal}} — reached!", values) : localized("{{amount}} of {{goal}}", values)
        members = progress.contributions.map {
            Member(name: $0.member, amount: challenge.measure.amount($0.amount), isYou: $0.userID == viewer)
        }
        viewerTakesPart = progress.contributions.contains { $0.userID == viewer }
        editPath = viewerIsAdmin ? Paths.houseChallenge : nil
    }
}
