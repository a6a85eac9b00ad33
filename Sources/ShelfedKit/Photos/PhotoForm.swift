import Foundation

/// The page number and comment of a photo as typed, and their rules.
struct PhotoForm: Sendable, Decodable {
    var pageNumber = ""
    var comment = ""
    /// The words on the page as the owner corrected them; nil when the form had no text field (still being read).
    var text: String?
    /// The upload page's turn and crop fields as typed, shown again when the upload is refused.
    var touchUp: [String: String] = [:]
    static let maxComment = 2_000
    static let touchUpFields = ["turn", "crop_preset", "crop_left", "crop_top", "crop_right", "crop_bottom"]

    init(pageNumber: String? = nil, comment: String? = nil, text: String? = nil) {
        self.pageNumber = pageNumber?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.comment = comment?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case comment, text
        case pageNumber = "page_number"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            pageNumber: try form.text(.pageNumber), comment: try form.text(.comment),
            text: try form.decodeIfPresent(String.self, forKey: .text))
    }

    /// The corrected text as it will be stored (nil for none), or a message for the `text` field.
    func validatedText() -> Result<String?, FieldErrors> {
        guard let text else { return .success(nil) }
        guard text.count <= PhotoText.maxCharacters else {
            var errors = FieldErrors()
            errors["text"] = "Keep the text to \(PhotoText.maxCharacters) characters (it has \(text.count))."
            return .failure(errors)
        }
        return .success(PhotoText.cleaned(text))
    }

    /// The checked values, or messages keyed `page_number` / `comment`.
    func validate(pageCount: Int?) -> Result<(page: Int?, comment: String?), FieldErrors> {
        var errors = FieldErrors()
        var page: Int?
        if !pageNumber.isEmpty {
            if let number = BoundedNumber.parse(pageNumber, in: BoundedNumber.pageCount) {
                page = number
                if let pageCount, number > pageCount {
                    errors["page_number"] = "This book has \(pageCount) pages; enter a page from 1 to \(pageCount)."
                }
            } else {
                errors["page_number"] = "Enter the page as a whole number, like 42."
            }
        }
        if comment.count > Self.maxComment {
            errors["comment"] = "Keep the comment to \(Self.maxComment) characters (it has \(comment.count))."
        }
        guard errors.isEmpty else { return .failure(errors) }
        return .success((page, comment.isEmpty ? nil : comment))
    }
}
