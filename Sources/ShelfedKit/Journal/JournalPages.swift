import Foundation
import Mustache

/// A progress bar as the pages draw it: a `<progress>` element and the words beside it.
struct ProgressBar: Sendable {
    /// 0–100, for `<progress value max="100">`.
    let percent: Int
    let summary: String

    init?(_ progress: ReadingProgress) {
        guard let summary = progress.summary else { return nil }
        self.summary = summary
        percent = Int(((progress.fraction ?? 0) * 100).rounded())
    }
}

/// The book page's "Reading progress": the bar, the update form (kept with the typed values and the messages
/// when it was refused) and the journal, newest first.
struct JournalSection: Sendable {
    struct Item: Sendable {
        let readOn: String
        let amount: String
        let note: String?
        let editPath: String
    }

    let formPath: String
    /// On the Read shelf: "Read it again".
    let readAgainPath: String?
    let byPercent: Bool
    let showsForm: Bool
    /// "Another day, or a note" is open: something was typed there, or refused.
    let moreOpen: Bool
    let hint: String?
    let bar: ProgressBar?
    let readOnValue: String
    let pageValue: String
    let percentValue: String
    let noteValue: String
    let readOnError: String?
    let pageError: String?
    let percentError: String?
    let noteError: String?
    let pageCount: Int?
    let entries: [Item]
    let hasEntries: Bool
    let more: String?

    /// The hint on Did not finish.
    static var stoppedHint: String {
        localized(
            "You stopped reading this. Save the page where you stopped; to pick it up again, move it to Reading.")
    }

    struct Typed: Sendable {
        var readOn = ""
        var page = ""
        var percent = ""
        var note = ""
    }

    init(
        entry: LibraryEntry, journal: (entries: [JournalEntry], total: Int), today: String, typed: Typed? = nil,
        errors: FieldErrors = .init()
    ) {
        let userBook = entry.userBook
        formPath = Paths.bookProgress(entry.bookID)
        readAgainPath = userBook.shelf == .read ? Paths.bookReadAgain(entry.bookID) : nil
        byPercent = userBook.readsByPercent
        showsForm = userBook.shelf == .reading
        hint =
            switch userBook.shelf {
            case .wantToRead: localized("Started it? Saving your page moves it to Reading.")
            case .read: localized("You finished it. Reading it again keeps this read and starts a new one today.")
            case .reading: nil
            case .didNotFinish: Self.stoppedHint
            }
        bar = ProgressBar(
            ReadingProgress(
                page: userBook.currentPage, percent: userBook.currentPercent, pageCount: entry.book.pageCount))
        readOnValue = typed?.readOn ?? today
        pageValue = typed?.page ?? ""
        percentValue = typed?.percent ?? ""
        noteValue = typed?.note ?? ""
        readOnError = errors["read_on"]
        pageError = errors["page"]
        percentError = errors["percent"]
        noteError = errors["note"]
        moreOpen =
            readOnError != nil || noteError != nil || !(typed?.note ?? "").isEmpty
            || (typed.map { !$0.readOn.isEmpty && $0.readOn != today } ?? false)
        pageCount = entry.book.pageCount
        entries = journal.entries.map { entry in
            Item(
                readOn: entry.readOn,
                amount: entry.percent.map { "\(ProgressValues.percentText($0)) %" }
                    ?? localized("Page {{page}}", ["page": String(entry.page ?? 0)]),
                note: entry.note, editPath: Paths.journalEntry(entry.id))
        }
        hasEntries = !entries.isEmpty
        more =
            journal.total > journal.entries.count
            ? localized(
                "The latest {{shown}} of {{total}} entries.",
                ["shown": String(journal.entries.count), "total": String(journal.total)]) : nil
    }
}

/// `library/journal-entry`: one journal entry's edit form, and the way to delete it.
struct JournalEntryPage: Sendable {
    let chrome: PageChrome
    let bookTitle: String
    let bookPath: String
    let savePath: String
    let deletePath: String
    let byPercent: Bool
    let readOnValue: String
    let pageValue: String
    let percentValue: String
    let noteValue: String
    let readOnError: String?
    let pageError: String?
    let percentError: String?
    let noteError: String?

    init(
        context: some PageContext, entry: JournalEntry, book: LibraryEntry, typed: JournalSection.Typed? = nil,
        errors: FieldErrors = .init()
    ) {
        chrome = PageChrome(
            title: localized("Journal entry: {{title}}", ["title": book.book.title]), context: context, tab: .shelves)
        bookTitle = book.book.title
        bookPath = Paths.book(book.bookID)
        savePath = Paths.journalEntry(entry.id)
        deletePath = Paths.journalEntryDelete(entry.id)
        byPercent = entry.percent != nil
        readOnValue = typed?.readOn ?? entry.readOn
        pageValue = typed?.page ?? entry.page.map(String.init) ?? ""
        percentValue = typed?.percent ?? entry.percent.map(ProgressValues.percentText) ?? ""
        noteValue = typed?.note ?? entry.note ?? ""
        readOnError = errors["read_on"]
        pageError = errors["page"]
        percentError = errors["percent"]
        noteError = errors["note"]
    }
}

/// `library/journal-delete`: asks before deleting an entry.
struct JournalDeletePage: Sendable {
    let chrome: PageChrome
    let bookTitle: String
    let summary: String
    let deletePath: String
    let keepPath: String
}

// Lists are looked up field by field; answering directly spares Mustache a Mirror per lookup (100 journal entries,
// a bar and a form per book in progress).
extension JournalSection: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "formPath": formPath
        case "readAgainPath": readAgainPath
        case "byPercent": byPercent
        case "showsForm": showsForm
        case "moreOpen": moreOpen
        case "hint": hint
        case "bar": bar
        case "readOnValue": readOnValue
        case "pageValue": pageValue
        case "percentValue": percentValue
        case "noteValue": noteValue
        case "readOnError": readOnError
        case "pageError": pageError
        case "percentError": percentError
        case "noteError": noteError
        case "pageCount": pageCount
        case "entries": entries
        case "hasEntries": hasEntries
        case "more": more
        default: nil
        }
    }
}

extension JournalSection.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "readOn": readOn
        case "amount": amount
        case "note": note
        case "editPath": editPath
        default: nil
        }
    }
}

extension ProgressBar: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "percent": percent
        case "summary": summary
        default: nil
        }
    }
}

extension HomePage.ProgressItem: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "bookID": bookID
        case "title": title
        case "authors": authors
        case "path": path
        case "coverURL": coverURL
        case "hasCover": hasCover
        case "bar": bar
        case "byPercent": byPercent
        case "pageCount": pageCount
        case "progressPath": progressPath
        case "shelfPath": shelfPath
        case "csrf": csrf
        case "tracksPages": tracksPages
        case "upNext": upNext
        case "episodesPath": episodesPath
        case "isNew": isNew
        default: nil
        }
    }
}
