import Foundation

/// A progress update as the journal keeps it, checked from what was typed (the book page's form, the home page's
/// one-field form, the API) against the book and the calendar. What a person would expect:
/// - the day is today unless given (an edited entry keeps its own); a day still to come, or before 1900, is refused;
///   a day before the start moves the start back;
/// - a page past the book's last page is refused (the page count may be wrong: the message says where to fix it);
/// - going backwards is allowed (re-reading a chapter, a typo put right); pages read only count forward progress.
struct ProgressValues: Sendable, Equatable {
    var readOn: String
    var page: Int?
    var percent: Double?
    var note: String?

    static let maxNoteLength = 2_000
    /// The earliest day a journal takes: an older one is a slip of the date picker, and would become the book's start.
    static let earliestDay = "1900-01-01"
    static let pages = 0...BoundedNumber.pageCount.upperBound

    /// Whether a book's progress is a percent rather than a page: it was tracked in percent already, or its format
    /// has no fixed pages (e-books, audiobooks).
    static func readsByPercent(percent: Double?, format: String?) -> Bool {
        guard percent == nil else { return true }
        guard let format = format?.lowercased() else { return false }
        return ["ebook", "e-book", "kindle", "audio", "audiobook", "audible", "digital"].contains {
            format.contains($0)
        }
    }

    /// The values, or what is wrong with each field (`read_on`, `page`, `percent`, `note`), from the typed text.
    /// `keepingDay` is the day an edited entry had: left empty, the date stays what it was rather than becoming today.
    static func parse(
        readOn: String?, page: String?, percent: String?, note: String?, pageCount: Int?, byPercent: Bool,
        keepingDay: String? = nil, today: String
    ) -> Result<ProgressValues, FieldErrors> {
        var errors = FieldErrors()
        let day = clean(readOn) ?? keepingDay ?? today
        if !CalendarDate.isValidDay(day) {
            errors["read_on"] = localized("Use a date like 2024-03-17.")
        } else if day > today {
            errors["read_on"] = localized("That day is still to come: the date can be today at the latest.")
        } else if day < earliestDay {
            errors["read_on"] = localized("Check the year: a journal starts in 1900 at the earliest.")
        }
        var values = ProgressValues(readOn: day)
        switch (clean(page), clean(percent?.replacingOccurrences(of: "%", with: ""))) {
        case (nil, nil):
            if byPercent {
                errors["percent"] = localized("Say how far you are, from 0 to 100 %.")
            } else {
                errors["page"] = localized("Say which page you are on.")
            }
        case (.some, .some):
            // Said beside the field the form shows, so the message is seen.
            errors[byPercent ? "percent" : "page"] = localized("Give a page or a percent, not both.")
        case (let text?, nil):
            if let number = BoundedNumber.parse(text, in: pages) {
                if let pageCount, number > pageCount {
                    errors["page"] = localized(
                        "This book has {{count}} pages. Check the number, or correct the page count with Edit details.",
                        ["count": String(pageCount)])
                } else {
                    values.page = number
                }
            } else {
                errors["page"] = localized("Type the page number as a whole number, like 120.")
            }
        case (nil, let text?):
            if let number = percentNumber(text) {
                // Kept to a tenth; 99.96 % stays short of the end instead of becoming 100 %, a finished book.
                let tenth = (number * 10).rounded() / 10
                values.percent = tenth == 100 && number < 100 ? 99.9 : tenth
            } else {
                errors["percent"] = localized("Give a percent from 0 to 100, like 45.")
            }
        }
        if let note = clean(note) {
            if note.count > maxNoteLength {
                errors["note"] = localized("A note can be at most {{max}} characters.", ["max": String(maxNoteLength)])
            } else if NewBookForm.hasControlCharacters(note, allowingLineBreaks: true) {
                errors["note"] = localized("A note cannot contain control characters.")
            } else {
                values.note = note
            }
        }
        return errors.isEmpty ? .success(values) : .failure(errors)
    }

    /// Where a reader is in a book, or stopped: "45 %", "page 212" or "page 212 of 730"; nil when nothing was saved.
    /// In the request's language.
    static func position(percent: Double?, page: Int?, pageCount: Int? = nil) -> String? {
        if let percent { return "\(percentText(percent)) %" }
        guard let page else { return nil }
        guard let pageCount else { return localized("page {{page}}", ["page": String(page)]) }
        return localized("page {{page}} of {{count}}", ["page": String(page), "count": String(pageCount)])
    }

    /// "45" or "45.5".
    static func percentText(_ percent: Double) -> String {
        percent == percent.rounded() ? String(Int(percent)) : String(format: "%.1f", percent)
    }

    /// A percent as typed, "45", "45.5" or "45,5" (a phone set to a language that writes a decimal comma), 0 to 100;
    /// nil for anything else, such as "1e2".
    static func percentNumber(_ text: String) -> Double? {
        BoundedNumber.decimal(text.replacingOccurrences(of: ",", with: "."), maxLength: 12, in: 0...100)
    }

    private static func clean(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
