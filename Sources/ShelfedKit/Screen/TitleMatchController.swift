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

    /// GET /titles/match
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        var page = try await page(context)
        let saved = FormFields(urlEncoded: request.uri.query ?? "")["saved"]
        page.chrome.toast = saved.flatMap { ActionNotice.saved($0, dismiss: Paths.titleMatches) }
        return try renderer.render(page, template: "titles/match")
    }

    /// POST /titles/match/:id (`choice` = a candidate's position, or `none` to keep the row as imported)
    @Sendable func choose(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let bookID = BoundedNumber.id(context.parameters.get("id")) else { throw AppError.notFound(nil) }
        var request = request
        let form = try await request.formFields()
        guard let row = try await matching.waitingForChoice(of: context.userID, bookID: bookID).first else {
            // Chosen already (a second tap, another tab): the list says so; anyone else's row is not there at all.
            guard try await matching.isImportedTitle(bookID, of: context.userID) else { throw AppError.notFound(nil) }
            return .seeOther(Paths.titleMatches)
        }
        if form["choice"] == "none" {
            guard try await matching.keepAsImported(bookID, userID: context.userID, at: clock.now()) else {
                return .seeOther(Paths.titleMatches)
            }
            return .seeOther(Paths.titleMatches + "?saved=title-kept")
        }
        guard let position = form["choice"].flatMap({ Int($0) }),
            let candidate = row.candidates.first(where: { $0.position == position })
        else {
            return try await failed(
                bookID, localized("Choose one of the titles, or “None of these”."), status: .unprocessableContent,
                context)
        }
        do {
            let title = try await resultWithin(pageWait) { [matching] in
                try await matching.titles.title(
                    source: candidate.candidate.source, id: candidate.candidate.providerID, kind: row.kind)
            }
            guard try await matching.attach(title, to: bookID, userID: context.userID, now: clock.now()) else {
                return .seeOther(Paths.titleMatches)
            }
            return .seeOther(Paths.titleMatches + "?saved=title-matched")
        } catch let failure as UpstreamFailure {
            return try await failed(
                bookID,
                localized("{{problem}} Nothing was changed.", ["problem": TitleSearchController.message(for: failure)]),
                status: failure.pageStatus, context)
        }
    }

    private func failed(_ bookID: Int64, _ message: String, status: HTTPResponse.Status, _ context: SignedInContext)
        async throws -> Response
    {
        var page = try await page(context)
        if let index = page.rows.firstIndex(where: { $0.bookID == bookID }) { page.rows[index].error = message }
        return try renderer.render(page, template: "titles/match", status: status).response
    }

    private func page(_ context: SignedInContext) async throws -> TitleMatchPage {
        TitleMatchPage(
            chrome: PageChrome(title: localized("Which title is it?"), context: context),
            rows: try await matching.waitingForChoice(of: context.userID))
    }
}

/// `titles/match`. Every field the template reads is stored: Mustache reads a value's stored properties only.
struct TitleMatchPage: Sendable {
    var chrome: PageChrome
    var rows: [ImportedTitleMatching.Choice]
    let hasRows: Bool

    init(chrome: PageChrome, rows: [ImportedTitleMatching.Choice]) {
        self.chrome = chrome
        self.rows = rows
        hasRows = !rows.isEmpty
    }
}

extension ImportedTitleMatching {
    /// An imported row waiting for its person's choice, with the titles that fit it.
    struct Choice: Sendable {
        struct Option: Sendable {
            let position: Int
            let candidate: Candidate
            let fieldID: String
            let label: String
            let source: String

            init(position: Int, candidate: Candidate, bookID: Int64) {
                self.position = position
                self.candidate = candidate
                fieldID = "choice-\(bookID)-\(position)"
                label =
                    candidate.title + (candidate.year.map { " (\($0))" } ?? "")
                    + (candidate.makers.isEmpty ? "" : " — " + candidate.makers)
                source = candidate.source.displayName
            }
        }

        let bookID: Int64
        let kind: TitleKind
        let heading: String
        /// "Your film is", over the titles to choose from.
        let legend: String
        let bookPath: String
        let formPath: String
        let noneID: String
        var candidates: [Option]
        var error: String? = nil

        init(bookID: Int64, kind: TitleKind, title: String, year: Int?, candidates: [Option]) {
            self.bookID = bookID
            self.kind = kind
            heading = title + (year.map { " (\($0))" } ?? "")
            switch kind {
            case .book: legend = localized("Your book is")
            case .movie: legend = localized("Your film is")
            case .show: legend = localized("Your TV show is")
            }
            bookPath = Route.book.link(bookID)
            formPath = Route.titleMatchChoice.link(bookID)
            noneID = "choice-\(bookID)-none"
            self.candidates = candidates
        }
    }

    /// The person's imported rows waiting for a choice, by title (the first 200), or only `bookID`.
    func waitingForChoice(of userID: Int64, bookID: Int64? = nil) async throws -> [Choice] {
        try await db.read { db in
            var choices: [Choice] = []
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT id, kind, title, published_date FROM book
                    WHERE owner_user_id = ? AND title_match = 'review' AND provider_key IS NULL
                        AND id = COALESCE(?, id)
                    ORDER BY title_key, id LIMIT 200
                    """, arguments: [userID, bookID])
            {
                let bookID: Int64 = row["id"]
                let published: String? = row["published_date"]
                let options = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT position, source, provider_id, title, year, makers FROM title_candidate
                        WHERE book_id = ? ORDER BY position
                        """, arguments: [bookID]
                ).compactMap { option -> Choice.Option? in
                    guard let source = ScreenSource(rawValue: option["source"]) else { return nil }
                    return Choice.Option(
                        position: option["position"],
                        candidate: Candidate(
                            source: source, providerID: option["provider_id"], title: option["title"],
                            year: option["year"], makers: option["makers"]),
                        bookID: bookID)
                }
                choices.append(
                    Choice(
                        bookID: bookID, kind: TitleKind(rawValue: row["kind"]) ?? .movie, title: row["title"],
                        year: Self.year(of: published), candidates: options))
            }
            return choices
        }
    }

    /// Whether `bookID` is one of the person's imported films or shows.
    func isImportedTitle(_ bookID: Int64, of userID: Int64) async throws -> Bool {
        try await db.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT 1 FROM book WHERE id = ? AND owner_user_id = ? AND source = 'import'
                        AND kind IN ('movie', 'show')
                    """, arguments: [bookID, userID]) ?? false
        }
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
