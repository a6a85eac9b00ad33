import Foundation
import GRDB

/// Turns and crops a stored photo (issue 24): new display and thumbnail files are made from the untouched original,
/// the row is pointed at them in one write, and only then are the old files removed — a failure at any step leaves
/// the photo as it was. The words are read again from the new picture, unless the owner typed them.
struct PhotoTouchUps: Sendable {
    let media: MediaStore
    let processor: ImageProcessor
    let photos: PhotoStore
    var textReader: PhotoTextReader? = nil

    /// Applies `edit` (the whole edit, from the original) to the person's photo; the photo as it now is, or nil when
    /// it is not theirs or was deleted meanwhile.
    func apply(_ edit: PhotoEdit, to photo: Photo) async throws -> Photo? {
        guard edit.crop.isValid else {
            throw AppError.invalid(
                localized("A crop must keep at least a tenth of the photo's width and height."), field: "crop")
        }
        if edit == photo.edit { return photo }
        let display = media.temporaryFile("-display.jpg")
        let thumbnail = media.temporaryFile("-thumb.jpg")
        defer { for file in [display, thumbnail] { try? FileManager.default.removeItem(at: file) } }
        let derived = try await processor.derive(
            from: media.url(for: photo.originalPath), applying: edit, display: display, thumbnail: thumbnail)
        let paths = try media.commit([(display, "-display.jpg"), (thumbnail, "-thumb.jpg")], userID: photo.userId)
        let replaced: Photo?
        do {
            replaced = try await photos.replaceDerivatives(
                of: photo.id!, userID: photo.userId, edit: edit, displayPath: paths[0], thumbPath: paths[1],
                derived: derived)
        } catch {
            media.remove(paths)
            throw error
        }
        guard let replaced else {
            media.remove(paths)
            return nil
        }
        media.remove([replaced.displayPath, replaced.thumbPath])
        let updated = try await photos.photo(id: photo.id!, of: photo.userId)
        if updated?.ocrStatus == PhotoText.Status.pending.rawValue { textReader?.photoStored() }
        return updated
    }
}

extension PhotoStore {
    /// Points the person's photo at new display and thumbnail files made with `edit`; the row as it was (whose files
    /// the caller removes), or nil when the photo is gone. Words read by the machine wait to be read again; words
    /// the owner typed are kept.
    func replaceDerivatives(
        of id: Int64, userID: Int64, edit: PhotoEdit, displayPath: String, thumbPath: String, derived: DerivedImages
    ) async throws -> Photo? {
        try await db.write { db in
            guard let before = try Photo.filter(Column("id") == id && Column("user_id") == userID).fetchOne(db) else {
                return nil
            }
            try db.execute(
                sql: """
                    UPDATE photo SET display_path = ?, thumb_path = ?, width = ?, height = ?, edit_turns = ?,
                        crop_left = ?, crop_top = ?, crop_right = ?, crop_bottom = ?,
                        ocr_status = CASE WHEN ocr_status IN ('done', 'failed', 'reading') THEN 'pending'
                            ELSE ocr_status END
                    WHERE id = ?
                    """,
                arguments: [
                    displayPath, thumbPath, derived.displayWidth, derived.displayHeight, edit.quarterTurns % 4,
                    edit.crop.left, edit.crop.top, edit.crop.right, edit.crop.bottom, id,
                ])
            return before
        }
    }
}
