import Foundation

/// Where a photo belongs (a book's page, a film's or show's moment) and its comment as typed, and their rules.
struct PhotoForm: Sendable, Decodable {
    var pageNumber = ""
    /// A film's time or a show's episode (and time), as typed: "1:02:15", "S2E3 12:04".
    var moment = ""
    var comment = ""
    /// The words on the page as the owner corrected them; nil when the form had no text field (still being read).
    var text: String?
    /// The upload page's turn and crop fields as typed, shown again when the upload is refused.
    var touchUp: [String: String] = [:]
    /// The other kind's field is refused rather than ignored: an API client sending a film's photo a page number
    /// must hear it was not kept (a web form for one kind never shows the other field).
    var refusesOtherKindsPlace = false
    static let maxComment = 2_000
    static let touchUpFields = ["turn", "crop_preset", "crop_left", "crop_top", "crop_right", "crop_bottom"]

    init(pageNumber: String? = nil, moment: String? = nil, comment: String? = nil, text: String? = nil) {
        self.pageNumber = pageNumber?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.moment = moment?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.comment = comment?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case comment, text, moment
        case pageNumber = "page_number"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            pageNumber: try form.text(.pageNumber), moment: try form.text(.moment), comment: try form.text(.comment),
            text: try form.decodeIfPresent(String.self, forKey: .text))
    }

    /// The corrected text as it will be stored (nil for none), or a message for the `text` field.
    func validatedText() -> Result<String?, FieldErrors> {
        guard let text else { return .success(nil) }
        guard text.count <= PhotoText.maxCharacters else {
            var errors = FieldErrors()
            errors["text"] = localized(
                "Keep the text to {{max}} characters (it has {{count}}).",
                ["max": String(PhotoText.maxCharacters), "count": String(text.count)])
            return .failure(errors)
        }
        return .success(PhotoText.cleaned(text))
    }

    /// The checked place and comment, or messages keyed `page_number` / `moment` / `comment`. A book's photo has a
    /// page; a film's or show's a moment; the other field is ignored (a form for one kind never shows it).
    func validate(for target: PhotoTarget) -> Result<(place: PhotoPlace, comment: String?), FieldErrors> {
        var errors = FieldErrors()
        var place = PhotoPlace()
        if target.kind == .book, !pageNumber.isEmpty {
            if let number = BoundedNumber.parse(pageNumber, in: BoundedNumber.pageCount) {
                place.page = number
                if let pageCount = target.pageCount, number > pageCount {
                    errors["page_number"] = localized(
                        "This book has {{count}} pages; enter a page from 1 to {{count}}.",
                        ["count": String(pageCount)])
                }
            } else {
                errors["page_number"] = localized("Enter the page as a whole number, like 42.")
            }
        } else if target.kind != .book, !moment.isEmpty {
            switch PhotoMoment.parse(moment, for: target.kind) {
            case .success(let parsed):
                place.moment = parsed
                if let problem = target.problem(with: parsed) { errors["moment"] = problem }
            case .failure(let refusal):
                errors["moment"] = refusal.message
            }
        }
        if refusesOtherKindsPlace, target.kind == .book, !moment.isEmpty {
            errors["moment"] = "A book's photo has a page, not a moment: send page_number instead."
        } else if refusesOtherKindsPlace, target.kind != .book, !pageNumber.isEmpty {
            errors["page_number"] =
                "A \(target.kind.noun)'s photo has a moment, not a page: send moment instead, like "
                + (target.kind == .show ? "\"S2E3\" or \"S2E3 12:04\"." : "\"1:02:15\".")
        }
        if comment.count > Self.maxComment {
            errors["comment"] = localized(
                "Keep the comment to {{max}} characters (it has {{count}}).",
                ["max": String(Self.maxComment), "count": String(comment.count)])
        }
        guard errors.isEmpty else { return .failure(errors) }
        return .success((place, comment.isEmpty ? nil : comment))
    }
}
