import Foundation
import Logging

/// Takes an uploaded file from `.incoming/` to a stored photo: checks its type by its bytes, derives the
/// display image and thumbnail, moves all three files into the user's folder, then inserts the row.
/// If any step fails, whatever was written is removed.
struct PhotoUploader: Sendable {
    let media: MediaStore
    let processor: ImageProcessor
    let photos: PhotoStore
    let logger: Logger

    struct Details: Sendable {
        var bookID: Int64?
        var place = PhotoPlace()
        var comment: String?
        var squareThumbnail = false
        /// Turned or cropped on the upload page before saving (a page photo only).
        var edit = PhotoEdit()
    }

    /// Told of every stored page photo, so its words are read soon after.
    var textReader: PhotoTextReader? = nil

    /// Turning and cropping stored photos, with the same files, processor and reader.
    var touchUps: PhotoTouchUps {
        PhotoTouchUps(media: media, processor: processor, photos: photos, textReader: textReader)
    }

    func store(_ upload: UploadedFile, userID: Int64, details: Details, now: Date) async throws -> Photo {
        let display = media.temporaryFile("-display.jpg")
        let thumbnail = media.temporaryFile("-thumb.jpg")
        defer {
            for file in [upload.url, display, thumbnail] { try? FileManager.default.removeItem(at: file) }
        }
        let kind = try ImageProcessor.readableKind(
            at: upload.url, retry: localized("or share the photo as JPEG, and upload it again."))
        let derived =
            details.edit.isNone
            ? try await processor.derive(
                from: upload.url, display: display, thumbnail: thumbnail, squareThumbnail: details.squareThumbnail)
            : try await processor.derive(
                from: upload.url, applying: details.edit, display: display, thumbnail: thumbnail)
        let paths = try media.commit(
            [(upload.url, "-original.\(kind.fileExtension)"), (display, "-display.jpg"), (thumbnail, "-thumb.jpg")],
            userID: userID)
        do {
            defer { if details.bookID != nil { textReader?.photoStored() } }
            return try await photos.insert(
                Photo(
                    id: nil, userId: userID, bookId: details.bookID, originalPath: paths[0], displayPath: paths[1],
                    thumbPath: paths[2], width: derived.displayWidth, height: derived.displayHeight,
                    bytes: upload.bytes, sha256: nil, contentType: kind.contentType, pageNumber: details.place.page,
                    comment: details.comment, takenAt: nil, createdAt: now,
                    ocrStatus: details.bookID == nil ? nil : PhotoText.Status.pending.rawValue,
                    editTurns: details.edit.quarterTurns % 4, cropLeft: details.edit.crop.left,
                    cropTop: details.edit.crop.top, cropRight: details.edit.crop.right,
                    cropBottom: details.edit.crop.bottom, momentSeason: details.place.moment?.season,
                    momentEpisode: details.place.moment?.episode, momentSeconds: details.place.moment?.seconds))
        } catch PhotoStore.Gone.account {
            media.remove(paths)
            throw AppError.gone(
                localized("This account was deleted while the photo was uploading; it was not kept."))
        } catch PhotoStore.Gone.book {
            media.remove(paths)
            throw AppError.notFound(
                localized("This book left your library while the photo was uploading; it was not kept."))
        } catch {
            media.remove(paths)
            throw error
        }
    }

    /// Stores every file of one upload, or none: one bad file fails the whole upload (the stored ones are
    /// deleted again), so the user never wonders which photos made it.
    func storeAll(_ upload: MultipartUpload, userID: Int64, details: Details, now: Date) async throws -> [Photo] {
        var stored: [Photo] = []
        do {
            for file in upload.files {
                stored.append(try await store(file, userID: userID, details: details, now: now))
            }
        } catch {
            upload.discardFiles()
            for photo in stored { _ = try? await delete(photo.id!, userID: userID) }
            throw error
        }
        return stored
    }

    /// Deletes the user's photo `id`: its row, then its three files. False when they have no such photo.
    func delete(_ id: Int64, userID: Int64) async throws -> Bool {
        guard let removed = try await photos.delete(id: id, of: userID) else { return false }
        media.remove(removed.files)
        return true
    }
}
