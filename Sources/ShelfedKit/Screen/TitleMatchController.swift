import Foundation
import GRDB
import Hummingbird

/// The review step of imported films and shows (issue 38): rows the background matching found several titles for,
/// or one title for a row without a year, are never guessed at; the person chooses here, or keeps the row as the
/// export wrote it. Only their own rows; another person's id is a 404.
struct TitleMatchController: Sendable {
    let matching: ImportedTitleMatching
    let renderer: PageRenderer
    let pageWait: Duration
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.titleMatches.routerPath, use: index)
        router.post(Route.titleMatchChoice.routerPath, use: choose)
    }

    /// GET /titles/match?page=N: fifty titles a page, by title; `?title=ID` (a film's own page links so) the page
    /// that title is on.
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        var number = Self.pageNumber(query["page"])
        if let bookID = BoundedNumber.id(query["title"]),
            let place = try await matching.waitingPlace(of: context.userID, bookID: bookID)
        {
            number = place / ImportedTitleMatching.reviewPageSize + 1
        }
        var page = try await page(context, number: number)
        page.chrome.toast = query["saved"].flatMap { ActionNotice.saved($0, dismiss: Paths.titleMatches) }
        return try renderer.render(page, template: "titles/match")
    }

    static func pageNumber(_ text: String?) -> Int {
        text.flatMap { BoundedNumber.parse($0, in: BoundedNumber.listPage) } ?? 1
    }

    /// Back to the page the choice was made on: the rows after it move up one.
    static func back(to page: Int, saved: String) -> String {
        Paths.titleMatches + "?saved=" + saved + (page > 1 ? "&page=\(page)" : "")
    }

    /// POST /titles/match/:id (`choice` = a candidate's position, or `none` to keep the row as imported)
    @Sendable func choose(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let bookID = BoundedNumber.id(context.parameters.get("id")) else { throw AppError.notFound(nil) }
        var request = request
        let form = try await request.formFields()
        let pageNumber = Self.pageNumber(form["page"])
        guard let row = try await matching.waitingForChoice(of: context.userID, bookID: bookID).first else {
            // Chosen already (a second tap, another tab): the list says so; anyone else's row is not there at all.
            guard try await matching.isImportedTitle(bookID, of: context.userID) else { throw AppError.notFound(nil) }
            return .seeOther(Paths.titleMatches)
        }
        if form["choice"] == "none" {
            guard try await matching.keepAsImported(bookID, userID: context.userID, at: clock.now()) else {
                return .seeOther(Paths.titleMatches)
            }
            return .seeOther(Self.back(to: pageNumber, saved: "title-kept"))
        }
        guard let position = form["choice"].flatMap({ Int($0) }),
            let candidate = row.candidates.first(where: { $0.position == position })
        else {
            return try await failed(
                bookID, localized("Choose one of the titles, or “None of these”."), status: .unprocessableContent,
                page: pageNumber, context)
        }
        do {
            let title = try await resultWithin(pageWait) { [matching] in
                try await matching.titles.title(
                    source: candidate.candidate.source, id: candidate.candidate.providerID, kind: row.kind)
            }
            guard try await matching.attach(title, to: bookID, userID: context.userID, now: clock.now()) else {
                return .seeOther(Paths.titleMatches)
            }
            return .seeOther(Self.back(to: pageNumber, saved: "title-matched"))
        } catch let failure as UpstreamFailure {
            return try await failed(
                bookID,
                localized("{{problem}} Nothing was changed.", ["problem": TitleSearchController.message(for: failure)]),
                status: failure.pageStatus, page: pageNumber, context)
        }
    }

    /// The page the form was sent from, the message beside its title (put first, should the page have moved on).
    private func failed(
        _ bookID: Int64, _ message: String, status: HTTPResponse.Status, page number: Int, _ context: SignedInContext
    ) async throws -> Response {
        var page = try await page(context, number: number)
        if !page.rows.contains(where: { $0.bookID == bookID }),
            let row = try await matching.waitingForChoice(of: context.userID, bookID: bookID).first
        {
            page.rows.insert(row, at: 0)
        }
        if let index = page.rows.firstIndex(where: { $0.bookID == bookID }) { page.rows[index].error = message }
        return try renderer.render(page, template: "titles/match", status: status).response
    }

    private func page(_ context: SignedInContext, number: Int) async throws -> TitleMatchPage {
        let total = try await matching.waitingCount(of: context.userID)
        let pageSize = ImportedTitleMatching.reviewPageSize
        // A kept link to a list that has since shrunk shows its last page, not "nothing to choose".
        let number = min(number, max(1, (total + pageSize - 1) / pageSize))
        let rows = try await matching.waitingForChoice(of: context.userID, page: number)
        let pagination = Pagination(
            path: Paths.titleMatches, query: [:], current: number, total: total, pageSize: pageSize, nouns: .titles)
        return TitleMatchPage(
            chrome: PageChrome(title: localized("Which title is it?"), context: context), rows: rows,
            pageNumber: number, pagination: pagination.html, summary: pagination.hasPages ? pagination.summary : nil)
    }
}

/// `titles/match`. Every field the template reads is stored: Mustache reads a value's stored properties only.
struct TitleMatchPage: Sendable {
    var chrome: PageChrome
    var rows: [ImportedTitleMatching.Choice]
    let hasRows: Bool
    /// Sent back with each choice, so the answer comes back to this page.
    let pageNumber: Int
    let pagination: HTMLFragment
    /// "51–100 of 212 titles" when there is more than one page.
    let summary: String?

    init(
        chrome: PageChrome, rows: [ImportedTitleMatching.Choice], pageNumber: Int, pagination: HTMLFragment,
        summary: String?
    ) {
        self.chrome = chrome
        self.rows = rows
        hasRows = !rows.isEmpty
        self.pageNumber = pageNumber
        self.pagination = pagination
        self.summary = summary
    }
}

extension ImportStore {
    /// The person's imported films and shows still to be looked up, and those waiting for their choice.
    func titleMatching(of userID: Int64) async throws -> (pending: Int, choices: Int) {
        try await db.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FILTER (WHERE title_match IS NULL OR title_match = 'waiting'),
                        COUNT(*) FILTER (WHERE title_match = 'review')
                    FROM book
                    WHERE owner_user_id = ? AND source = 'import' AND kind IN ('movie', 'show') AND provider_key IS NULL
                    """, arguments: [userID])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }
}

extension ImportJobPage {
    mutating func setTitleMatching(_ counts: (pending: Int, choices: Int)) {
        if counts.pending > 0 {
            let arrival = localized(
                "posters, synopses and casts arrive over the next minutes (or once this server is online again).")
            let how = localized(
                "to the film and TV providers in the background, one at a time: {{arrival}}", ["arrival": arrival])
            titleMatching = localized(
                one: "{{count}} imported film or show is being matched {{how}}",
                other: "{{count}} imported films and shows are being matched {{how}}", count: counts.pending,
                ["how": how])
        }
        if counts.choices > 0 {
            titleChoices = localized(
                one: "{{count}} imported film or show fits more than one title, and nothing was guessed.",
                other: "{{count}} imported films and shows fit more than one title, and nothing was guessed.",
                count: counts.choices)
        }
    }
}
