import Foundation

/// The import page's words built in Swift: the summary's facts, the preview's nouns, a job's status and counts, in
/// the request's language.
extension ImportJobPage {
    /// "1 book", "2 books".
    static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }

    /// "1 book", "2 books", in the request's language.
    static func books(_ count: Int) -> String {
        localized(one: "{{books}} book", other: "{{books}} books", count: count, ["books": String(count)])
    }

    /// What the preview says after the count to import: rows read or watched with no date, rated, reviewed, to fix
    /// and left out.
    static func facts(_ summary: ImportSummary, isScreen: Bool) -> [String] {
        var facts: [String] = []
        let undated: KeyValuePairs<String, String> = ["titles": String(summary.withoutReadDate)]
        if summary.withoutReadDate > 0, isScreen {
            facts.append(
                localized(
                    one: "{{titles}} watched with no date (kept without one)",
                    other: "{{titles}} watched with no date (kept without one)", count: summary.withoutReadDate,
                    undated))
        } else if summary.withoutReadDate > 0 {
            facts.append(
                localized(
                    one: "{{titles}} read with no date (kept without one)",
                    other: "{{titles}} read with no date (kept without one)", count: summary.withoutReadDate,
                    undated))
        }
        if summary.rated > 0 {
            facts.append(
                localized(
                    one: "{{titles}} rated", other: "{{titles}} rated", count: summary.rated,
                    ["titles": String(summary.rated)]))
        }
        if summary.reviewed > 0 {
            facts.append(localized("{{titles}} with a review", ["titles": String(summary.reviewed)]))
        }
        if summary.problems > 0 {
            facts.append(
                localized(
                    one: "{{rows}} row needs a fix", other: "{{rows}} rows need a fix", count: summary.problems,
                    ["rows": String(summary.problems)]))
        }
        if summary.skipped > 0 {
            facts.append(
                localized(
                    one: "{{titles}} left out", other: "{{titles}} left out", count: summary.skipped,
                    ["titles": String(summary.skipped)]))
        }
        return facts
    }

    /// The preview's words for what its rows are (`ImportSummary.nouns`): books, films, TV shows, or titles of both.
    struct PreviewWords {
        /// "12 books to import"
        let toImport: String
        /// "Import 12 books"
        let importLabel: String
        /// "Books per shelf"
        let perShelf: String
        /// "Books you already have"
        let existing: String

        init(_ summary: ImportSummary, count: Int) {
            let values: KeyValuePairs<String, String> = ["titles": String(count)]
            switch summary.nouns.one {
            case "film":
                toImport = localized(
                    one: "{{titles}} film to import", other: "{{titles}} films to import", count: count, values)
                importLabel = localized(
                    one: "Import {{titles}} film", other: "Import {{titles}} films", count: count, values)
                perShelf = localized("Films per shelf")
                existing = localized("Films you already have")
            case "TV show":
                toImport = localized(
                    one: "{{titles}} TV show to import", other: "{{titles}} TV shows to import", count: count, values)
                importLabel = localized(
                    one: "Import {{titles}} TV show", other: "Import {{titles}} TV shows", count: count, values)
                perShelf = localized("TV shows per shelf")
                existing = localized("TV shows you already have")
            case "title":
                toImport = localized(
                    one: "{{titles}} title to import", other: "{{titles}} titles to import", count: count, values)
                importLabel = localized(
                    one: "Import {{titles}} title", other: "Import {{titles}} titles", count: count, values)
                perShelf = localized("Titles per shelf")
                existing = localized("Titles you already have")
            default:
                toImport = localized(
                    one: "{{titles}} book to import", other: "{{titles}} books to import", count: count, values)
                importLabel = localized(
                    one: "Import {{titles}} book", other: "Import {{titles}} books", count: count, values)
                perShelf = localized("Books per shelf")
                existing = localized("Books you already have")
            }
        }
    }

    static func statusText(_ status: ImportJob.Status) -> String {
        switch status {
        case .staging: localized("Reading the file")
        case .mapping: localized("Waiting for your column choices")
        case .preview: localized("Waiting for you to confirm")
        case .initialized: localized("Queued")
        case .processing: localized("Importing")
        case .completed: localized("Finished")
        case .failed: localized("Failed")
        case .canceled: localized("Cancelled")
        }
    }

    static func counts(_ job: ImportJob) -> String {
        guard job.status.isRunning || job.status.isFinished else {
            return localized("{{rows}} rows", ["rows": String(job.total)])
        }
        let values: KeyValuePairs<String, String> = [
            "added": String(job.created), "updated": String(job.updated), "skipped": String(job.skipped),
            "failed": String(job.failed),
        ]
        return localized("{{added}} added · {{updated}} updated · {{skipped}} skipped · {{failed}} failed", values)
    }

    /// The same line for the page's script to fill in as rows are imported.
    static var countsPattern: String {
        localized(
            "{{added}} added · {{updated}} updated · {{skipped}} skipped · {{failed}} failed",
            ["added": "{added}", "updated": "{updated}", "skipped": "{skipped}", "failed": "{failed}"])
    }

    static func stars(_ rating: Double) -> String {
        let text = rating == rating.rounded() ? String(Int(rating)) : String(rating)
        return "\(text) ★"
    }

    static func format(_ date: Date) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: TimeZone(identifier: "UTC")!)
        // English keeps the server's own way of writing dates; the other languages write them their way.
        if Language.current != .en { style.locale = Language.current.locale }
        return date.formatted(style) + " UTC"
    }
}
