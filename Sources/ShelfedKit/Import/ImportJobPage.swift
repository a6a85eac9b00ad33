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
    var importLabel = "Import"
    var perShelfCaption = "Books per shelf"
    var existingLegend = "Books you already have"
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
        chrome = PageChrome(title: "Import", context: context, tab: .profile, notice: job.message)
        self.job = job
        fileName = job.fileName
        format = job.format.displayName
        switch job.format {
        case .barcodes: heading = "Scanned barcodes"
        case .mapped: heading = "Import of a CSV file"
        default: heading = "Import from \(job.format.displayName)"
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
            let nouns = summary.nouns
            shelfCounts = Shelf.allCases.compactMap { shelf in
                summary.byShelf[shelf].map { ShelfCount(shelf: shelf.title(for: shelfKind), count: $0) }
            }
            shelfChoices = job.shelfMapping.keys.sorted().enumerated().map { index, name in
                ShelfChoice(
                    index: index, name: name, count: Self.count(summary.customShelves[name] ?? 0, "book", "books"),
                    choices: Shelf.allCases.map { shelf in
                        Choice(value: shelf.rawValue, label: shelf.title, selected: job.shelfMapping[name] == shelf)
                    })
            }
            hasShelfChoices = !shelfChoices.isEmpty
            let titles = summary.titles ?? summary.books
            var facts = [Self.count(titles, nouns.one, nouns.many) + " to import"]
            if titles != summary.books { facts[0] += " (from \(summary.books) rows)" }
            if summary.withoutReadDate > 0 {
                let done = job.format.isScreen ? "watched" : "read"
                facts.append("\(summary.withoutReadDate) \(done) with no date (kept without one)")
            }
            if summary.rated > 0 { facts.append("\(summary.rated) rated") }
            if summary.reviewed > 0 { facts.append("\(summary.reviewed) with a review") }
            if summary.problems > 0 { facts.append(Self.count(summary.problems, "row needs", "rows need") + " a fix") }
            if summary.skipped > 0 { facts.append("\(summary.skipped) left out") }
            summaryLine = facts.joined(separator: " · ")
            importLabel = "Import " + Self.count(titles, nouns.one, nouns.many)
            perShelfCaption = nouns.many.prefix(1).uppercased() + nouns.many.dropFirst() + " per shelf"
            existingLegend = nouns.many.prefix(1).uppercased() + nouns.many.dropFirst() + " you already have"
        }
    }

    /// "Is 3/4/2022 4 March or 3 April?", in words built from the file's own example.
    static func dateQuestion(_ job: ImportJob, key: String, example: String) -> DateQuestion {
        let header = { (key: String) in job.headers.first { ImportRecord.key($0) == key } ?? key }
        let columns = job.ambiguousDates.keys.sorted().map { "“\(header($0))”" }.joined(separator: ", ")
        let parts = example.split(separator: "/").compactMap { Int($0) }
        func spoken(month: Int, day: Int) -> String {
            let months = ReadingChart.monthNames
            return (1...12).contains(month) && parts.count == 3 ? "\(day) \(months[month - 1]) \(parts[2])" : example
        }
        let (first, second) = parts.count == 3 ? (parts[0], parts[1]) : (1, 2)
        return DateQuestion(
            path: Route.importDateOrder.link(job.id), columns: columns, example: example,
            monthFirst: spoken(month: first, day: second), dayFirst: spoken(month: second, day: first))
    }

    mutating func setEnrichment(_ progress: EnrichmentProgress) {
        enrichment = Self.lines(progress)
    }

    /// What the results say about the filling-in; nil when the import queued no book for it.
    static func lines(_ progress: EnrichmentProgress) -> EnrichmentLines? {
        guard progress.total > 0 else { return nil }
        var done = "\(progress.enriched) of \(count(progress.total, "book", "books")) filled in"
        if progress.failed > 0 { done += ", \(progress.failed) not found" }
        if progress.pending > 0 { done += ", \(progress.pending) still to look up" }
        var waiting: String?
        if progress.waitingForBudget > 0 {
            waiting =
                count(progress.waitingForBudget, "book waits", "books wait")
                + " for tomorrow: Google Books answers a limited number of lookups a day, and the rest carry on then."
        }
        let described =
            "\(progress.withDescription) of \(count(progress.total, "book has", "books have")) a description"
        return EnrichmentLines(done: done, described: described, waiting: waiting, isRunning: !progress.isFinished)
    }

    mutating func setMapping(_ mapping: ColumnMapping, error: String?) {
        mappingError = error
        let fields: [(String, String, String?)] = [
            ("title", "Title (required)", mapping.title), ("author", "Author", mapping.author),
            ("isbn", "ISBN", mapping.isbn), ("shelf", "Shelf or status", mapping.shelf),
            ("date_read", "Date read", mapping.dateRead), ("rating", "Rating", mapping.rating),
        ]
        columnFields = fields.map { name, label, chosen in
            ColumnField(
                name: name, label: label,
                choices: [Choice(value: "", label: "— none —", selected: chosen == nil)]
                    + job.headers.map { Choice(value: $0, label: $0, selected: $0 == chosen) })
        }
    }

    mutating func addProblems(_ rows: [ImportRow], job: ImportJob) {
        problems = rows.map { row in
            let cells = job.headers.enumerated().map { index, header in
                ProblemRow.Cell(index: index, header: header, value: index < row.raw.count ? row.raw[index] : "")
            }
            let summary = cells.filter { !$0.value.isEmpty }.prefix(3).map { String($0.value.prefix(60)) }
                .joined(separator: " · ")
            return ProblemRow(
                row: row.row, anchor: "row-\(row.row)", message: row.message ?? "This row could not be imported.",
                summary: summary, cells: cells, retryPath: Route.importRetry.link(job.id, row.row))
        }
        hasProblems = !problems.isEmpty
        let total = job.status == .preview ? (job.summary?.problems ?? 0) : job.failed
        moreProblems = total > rows.count ? total - rows.count : nil
    }

    /// "1 book", "2 books".
    static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }

    static func statusText(_ status: ImportJob.Status) -> String {
        switch status {
        case .staging: "Reading the file"
        case .mapping: "Waiting for your column choices"
        case .preview: "Waiting for you to confirm"
        case .initialized: "Queued"
        case .processing: "Importing"
        case .completed: "Finished"
        case .failed: "Failed"
        case .canceled: "Cancelled"
        }
    }

    static func counts(_ job: ImportJob) -> String {
        guard job.status.isRunning || job.status.isFinished else { return "\(job.total) rows" }
        return "\(job.created) added · \(job.updated) updated · \(job.skipped) skipped · \(job.failed) failed"
    }

    static func stars(_ rating: Double) -> String {
        let text = rating == rating.rounded() ? String(Int(rating)) : String(rating)
        return "\(text) ★"
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: TimeZone(identifier: "UTC")!))
            + " UTC"
    }
}
