import Foundation
import Hummingbird

extension PhotoController {
    /// POST /photos/:photoID/touch-up: `action` is `turn-left`, `turn-right`, `crop` (with `crop_preset` or the
    /// percent cut from each edge) or `undo` (back to the original). Each is made again from the original file.
    @Sendable func touchUp(_ request: Request, context: SignedInContext) async throws -> Response {
        let (photo, bookTitle, book) = try await requirePhoto(context)
        guard photo.bookId != nil else {
            throw AppError.notFound(localized("A profile picture is changed by uploading another one."))
        }
        var request = request
        let form = try await request.formFields()
        var edit = photo.edit
        switch form["action"] {
        case "turn-left": edit = edit.turned(clockwise: false)
        case "turn-right": edit = edit.turned(clockwise: true)
        case "undo": edit = PhotoEdit()
        case "crop":
            // Cropping again starts from the whole (turned) picture: the edges typed are of the original.
            switch PhotoEdit.parse({ form[$0] }, startingFrom: PhotoEdit(quarterTurns: photo.editTurns)) {
            case .success(let cropped): edit = cropped
            case .failure(let errors):
                var page = photoPage(photo, bookTitle: bookTitle, target: PhotoTarget(book), context: context)
                page.touchUp = TouchUpSection(photo, kind: book?.kind ?? .book, typed: form, error: errors["crop"])
                return try renderer.render(page, template: "photos/show", status: .unprocessableContent).response
            }
        default:
            throw AppError.invalid(localized("Choose Turn left, Turn right, Crop or Undo all edits."), field: "action")
        }
        guard try await uploader.touchUps.apply(edit, to: photo) != nil else {
            throw AppError.notFound(localized("There is no such photo. It may have been deleted."))
        }
        let saved = edit.isNone ? "touch-up-undone" : "touch-up"
        return .seeOther(
            ActionNotice.link(Paths.photo(photo.id!), adding: [("saved", saved)], anchor: "touch-up-heading"))
    }
}

/// The photo page's "Turn and crop": buttons to turn, crop presets, the edges in percent (filled by the cropper
/// script, typed without it), and "Undo all edits" once the photo differs from its original.
struct TouchUpSection: Sendable {
    struct Preset: Sendable {
        let value: String
        let label: String
    }

    let formPath: String
    let presets: [Preset]
    let left: String
    let top: String
    let right: String
    let bottom: String
    let error: String?
    let isEdited: Bool
    let summary: String?

    init(_ photo: Photo, kind: TitleKind, typed: FormFields? = nil, error: String? = nil) {
        formPath = Paths.photoTouchUp(photo.id!)
        presets = PhotoEdit.Preset.allCases.map { Preset(value: $0.rawValue, label: $0.label(for: kind)) }
        let edit = photo.edit
        let percents = edit.crop.percents
        left = typed?["crop_left"] ?? percents.left
        top = typed?["crop_top"] ?? percents.top
        right = typed?["crop_right"] ?? percents.right
        bottom = typed?["crop_bottom"] ?? percents.bottom
        self.error = error
        isEdited = !edit.isNone
        let cropped = edit.crop != .none
        switch edit.quarterTurns % 4 {
        case 1:
            summary =
                cropped
                ? localized("This photo is turned right and cropped; the original is kept.")
                : localized("This photo is turned right; the original is kept.")
        case 2:
            summary =
                cropped
                ? localized("This photo is turned upside down and cropped; the original is kept.")
                : localized("This photo is turned upside down; the original is kept.")
        case 3:
            summary =
                cropped
                ? localized("This photo is turned left and cropped; the original is kept.")
                : localized("This photo is turned left; the original is kept.")
        default:
            summary = cropped ? localized("This photo is cropped; the original is kept.") : nil
        }
    }
}
