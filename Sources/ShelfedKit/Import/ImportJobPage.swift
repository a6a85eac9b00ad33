import Foundation

/// `import/job`: one import at whichever step it is.
struct ImportJobPage: Sendable {
    struct Choice: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    struct ColumnField: Sendable {
        let name: String
        let label: String
        let choices: [Choice]
    }

    struct ShelfChoice: Sendable {
        let index: Int
        let name: String
        let count: String
        let choices: [Choice]
    }

    struct ProblemRow: Sendable {
        struct Cell: Sendable {
            let index: Int
            let header: String
            let value: String
        }

        let row: Int
        let anchor: String
        let message: String
        let summary: String
        let cells: [Cell]
        let retryPath: String
    }

    struct ShelfCount: Sendable {
        let shelf: String
        let count: Int
    }

    let chrome: PageChrome
    let job: ImportJob
    let fileName: String
    let format: String
    /// "Import from Goodreads": the file's own name (often `goodreads_library_export.csv`) is shown small below,
    /// where it may break anywhere, not as a heading broken mid-word.
    let heading: String
    let status: String
    let isMapping: Bool
    let isPreview: Bool
    let isRunning: Bool
    let isFinished: Bool
    let percent: Int
    let counts: String
    /// The live progress script's words: the running status, and the counts line with `{added}`, `{updated}`,
    /// `{skipped}` and `{failed}` where its numbers go.
    let importingText: String
    let countsPattern: String
    let eventsPath: String
    let confirmPath: String
    let cancelPath: String
    let mappingPath: String
    let failedRowsPath: String
    var columnFields: [ColumnField] = []
    var mappingError: String?
    var shelfCounts: [ShelfCount] = []
    var shelfChoices: [ShelfChoice] = []
    var hasShelfChoices = false
    var previewRows: [PreviewRow] = []
    var problems: [ProblemRow] = []
    var hasProblems = false
    var moreProblems: Int?
    var summaryLine: String?
    var importLabel = localized("Import")
    var perShelfCaption = localized("Books per shelf")
    var existingLegend = localized("Books you already have")
    /// The one question about `3/4/2022`-style dates, asked in the preview when the file cannot settle it.
    var dateQuestion: DateQuestion?
    /// The one action for rows whose ISBN a spreadsheet damaged beyond what the row can repair.
    var withoutDamagedISBNs: WithoutDamagedISBNs?

    struct DateQuestion: Sendable {
        let path: String
        let columns: String
        let example: String
        let monthFirst: String
        let dayFirst: String
    }
    /// Covers and details being filled in after the import, when it added books.
    var enrichment: EnrichmentLines?
    /// Imported films and shows still being matched to a provider, and those waiting for the person's choice.
    var titleMatching: String?
    var titleChoices: String?
    /// Rows read from a file can be fixed here; scanned barcodes are sent again from the phone.
    let canFixRows: Bool
    let isBarcodes: Bool

    struct EnrichmentLines: Sendable {
        let done: String
        /// How many books have a description, which is what search by meaning and More like this read.
        let described: String
        let waiting: String?
        let isRunning: Bool
    }

    init(context: SignedInContext, job: ImportJob) {
        chrome = PageChrome(title: localized("Import"), context: context, tab: .profile, notice: job.message)
        self.job = job
        fileName = job.fileName
        format = job.format.displayName
        switch job.format {
        case .barcodes: heading = localized("Scanned barcodes")
        case .mapped: heading = localized("Import of a CSV file")
        default: heading = localized("Import from {{format}}", ["format": job.format.displayName])
        }
        status = Self.statusText(job.status)
        isMapping = job.status == .mapping
        isPreview = job.status == .preview
        isRunning = job.status.isRunning
        isFinished = job.status.isFinished
        // A job cancelled in its preview imported nothing, so its problem rows are shown but not fixed one by one.
        isBarcodes = job.format == .barcodes
        canFixRows = !isBarcodes && !(job.status.isFinished && job.failed == 0)
        percent = job.percent
        counts = Self.counts(job)
        importingText = Self.statusText(.processing)
        countsPattern = Self.countsPattern
        eventsPath = Route.importEvents.link(job.id)
        confirmPath = Route.importConfirm.link(job.id)
        cancelPath = Route.importCancel.link(job.id)
        mappingPath = Route.importMapping.link(job.id)
        failedRowsPath = Route.importFailedRows.link(job.id)
        if isMapping { setMapping(job.columnMapping ?? ColumnMapping.guess(headers: job.headers), error: nil) }
        if isPreview, let (key, example) = job.ambiguousDates.min(by: { $0.key < $1.key }) {
            dateQuestion = Self.dateQuestion(job, key: key, example: example)
        }
        if let summary = job.summary {
            let shelfKind: TitleKind = job.format.isScreen ? .movie : .book
            shelfCounts = Shelf.allCases.compactMap { shelf in
                summary.byShelf[shelf].map { ShelfCount(shelf: shelf.title(for: shelfKind), count: $0) }
            }
            shelfChoices = job.shelfMapping.keys.sorted().enumerated().map { index, name in
                ShelfChoice(
                    index: index, name: name, count: Self.books(summary.customShelves[name] ?? 0),
                    choices: Shelf.allCases.map { shelf in
                        Choice(value: shelf.rawValue, label: shelf.title, selected: job.shelfMapping[name] == shelf)
                    })
            }
            hasShelfChoices = !shelfChoices.isEmpty
            let titles = summary.titles ?? summary.books
            let words = PreviewWords(summary, count: titles)
            var facts = [words.toImport]
            if titles != summary.books {
                facts[0] += " " + localized("(from {{rows}} rows)", ["rows": String(summary.books)])
            }
            facts += Self.facts(summary, isScreen: job.format.isScreen)
            summaryLine = facts.joined(separator: " · ")
            importLabel = words.importLabel
            perShelfCaption = words.perShelf
            existingLegend = words.existing
        }
    }

    /// "Is 3/4/2022 4 March or 3 April?", in words built from the file's own example.
    static func dateQuestion(_ job: ImportJob, key: String, example: String) -> DateQuestion {
        let header = { (key: String) in job.headers.first { ImportRecord.key($0) == key } ?? key }
        let columns = job.ambiguousDates.keys.sorted().map { "“\(header($0))”" }.joined(separator: ", ")
        let parts = example.split(separator: "/").compactMap { Int($0) }
        let months = ReadingChart.monthNames
        func spoken(month: Int, day: Int) -> String {
            guard (1...12).contains(month) && parts.count == 3 else { return example }
            // Other languages than English say a date their own way ("4 de marzo de 2022", "4. März 2022").
            if Language.current != .en, let date = Self.day(year: parts[2], month: month, day: day) {
                return date
            }
            return "\(day) \(months[month - 1]) \(parts[2])"
        }
        let (first, second) = parts.count == 3 ? (parts[0], parts[1]) : (1, 2)
        return DateQuestion(
            path: Route.importDateOrder.link(job.id), columns: columns, example: example,
            monthFirst: spoken(month: first, day: second), dayFirst: spoken(month: second, day: first))
    }

    /// A calendar day in the request's language's long style, as Foundation writes it; nil for no such day.
    private static func day(year: Int, month: Int, day: Int) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        let utc = TimeZone(identifier: "UTC")!
        calendar.timeZone = utc
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: date) == day
        else { return nil }
        let style = Date.FormatStyle(
            date: .long, time: .omitted, locale: Language.current.locale, calendar: calendar, timeZone: utc)
        return date.formatted(style)
    }

    mutating func setEnrichment(_ progress: EnrichmentProgress) {
        enrichment = Self.lines(progress)
    }

    /// What the results say about the filling-in; nil when the import queued no book for it.
    static func lines(_ progress: EnrichmentProgress) -> EnrichmentLines? {
        guard progress.total > 0 else { return nil }
        let total = String(progress.total)
        let filled = localized(
            one: "{{done}} of {{total}} book filled in", other: "{{done}} of {{total}} books filled in",
            count: progress.total, ["done": String(progress.enriched), "total": total])
        var done = [filled]
        if progress.failed > 0 {
            done.append(
                localized(
                    one: "{{failed}} not found", other: "{{failed}} not found", count: progress.failed,
                    ["failed": String(progress.failed)]))
        }
        if progress.pending > 0 {
            done.append(localized("{{pending}} still to look up", ["pending": String(progress.pending)]))
        }
        var waiting: String?
        if progress.waitingForBudget > 0 {
            waiting =
                localized(
                    one: "{{books}} book waits for tomorrow:", other: "{{books}} books wait for tomorrow:",
                    count: progress.waitingForBudget, ["books": String(progress.waitingForBudget)]) + " "
                + localized("Google Books answers a limited number of lookups a day, and the rest carry on then.")
        }
        let described = localized(
            one: "{{described}} of {{total}} book has a description",
            other: "{{described}} of {{total}} books have a description", count: progress.total,
            ["described": String(progress.withDescription), "total": total])
        return EnrichmentLines(
            done: done.joined(separator: ", "), described: described, waiting: waiting, isRunning: !progress.isFinished)
    }

    mutating func setMapping(_ mapping: ColumnMapping, error: String?) {
        mappingError = error
        let fields: [(String, String, String?)] = [
            ("title", localized("Title (required)"), mapping.title), ("author", localized("Author"), mapping.author),
            ("isbn", "ISBN", mapping.isbn), ("shelf", localized("Shelf or status"), mapping.shelf),
            ("date_read", localized("Date read"), mapping.dateRead), ("rating", localized("Rating"), mapping.rating),
        ]
        let none = localized("— none —")
        columnFields = fields.map { name, label, chosen in
            ColumnField(
                name: name, label: label,
                choices: [Choice(value: "", label: none, selected: chosen == nil)]
                    + job.headers.map { Choice(value: $0, label: $0, selected: $0 == chosen) })
        }
    }

    mutating func addProblems(_ rows: [ImportRow], job: ImportJob) {
        let couldNotImport = localized("This row could not be imported.")
        problems = rows.map { row in
            let cells = job.headers.enumerated().map { index, header in
                ProblemRow.Cell(index: index, header: header, value: index < row.raw.count ? row.raw[index] : "")
            }
            let summary = cells.filter { !$0.value.isEmpty }.prefix(3).map { String($0.value.prefix(60)) }
                .joined(separator: " · ")
            return ProblemRow(
                row: row.row, anchor: "row-\(row.row)", message: row.message ?? couldNotImport,
                summary: summary, cells: cells, retryPath: Route.importRetry.link(job.id, row.row))
        }
        hasProblems = !problems.isEmpty
        let total = job.status == .preview ? (job.summary?.problems ?? 0) : job.failed
        moreProblems = total > rows.count ? total - rows.count : nil
    }
}
