import Foundation
import Hummingbird

/// Marking a show's episodes from its page (issue 37): one, "up to here", or a whole season; unmarking one. Idempotent
/// (marking twice keeps one row), bounded by the show's stored episodes, and a 404 for another person's show or an
/// episode it does not have.
struct EpisodeController: Sendable {
    let library: LibraryStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.bookEpisodes.routerPath, use: mark)
    }

    /// POST /books/:id/episodes (`season`, `episode`, `scope` = one | up_to | season, `watched` = 1 | 0)
    @Sendable func mark(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let bookID = BoundedNumber.id(context.parameters.get("id")) else { throw LibraryStore.notInLibrary }
        var request = request
        let form = try await request.formFields()
        guard let season = form["season"].flatMap({ BoundedNumber.parse($0, in: ScreenLimits.seasonNumbers) }) else {
            throw HTTPError(.badRequest, message: localized("Choose a season from the show's page."))
        }
        // The episode list's buttons send `mark` = `one:3`, `up_to:3` or `unwatch:3`; other forms send the fields.
        let button = form["mark"].map { $0.split(separator: ":", maxSplits: 1).map(String.init) }
        let number = (button?.last ?? form["episode"]).flatMap {
            BoundedNumber.parse($0, in: ScreenLimits.episodeNumbers)
        }
        let scope = button.map { $0.first == "unwatch" ? "one" : $0.first ?? "" } ?? form["scope"] ?? "one"
        let mark: EpisodeMark
        switch (scope, number) {
        case ("season", _): mark = .season(season)
        case ("up_to", let number?): mark = .upTo(season: season, number: number)
        case ("one", let number?): mark = .episode(season: season, number: number)
        default: throw HTTPError(.badRequest, message: localized("Choose an episode from the show's page."))
        }
        let watched = form["watched"] != "0" && button?.first != "unwatch"
        let outcome: EpisodeMarkOutcome?
        do {
            outcome = try await library.mark(
                mark, watched: watched, bookID: bookID, for: context.userID, today: clock.today(), now: clock.now())
        } catch is NoSuchEpisode {
            throw AppError.notFound(localized("This show has no such episode. Its page lists the ones it has."))
        }
        guard let outcome else { throw LibraryStore.notInLibrary }
        let saved: String =
            switch (mark, watched) {
            case (_, false): "episode-unwatched"
            case _ where outcome.shelf == .read: "show-caught-up"
            case (.season, _): "season-watched"
            case (.upTo, _): "episodes-up-to"
            case (.episode, _): "episode-watched"
            }
        // From the home page's "Up next", back to it saying so.
        if let returnTo = safeRelativePath(form.trimmed("return_to")) {
            return .seeOther(ActionNotice.link(returnTo, adding: [("saved", saved)]))
        }
        return .seeOther(
            ActionNotice.link(
                Paths.book(bookID), adding: [("season", String(season)), ("saved", saved)], anchor: "episodes"))
    }
}
