import Foundation
import Hummingbird

/// Sends one of a photo's three files to its owner (pages and API alike).
enum PhotoFile {
    /// Files never change under a name (an edit keeps them, a new upload gets new names), so the name is the
    /// ETag. `no-cache` makes a browser ask every time: after a sign-out, the next person on the same browser
    /// gets the server's 404, never a cached copy of someone else's photo (DESIGN §13). Originals are
    /// attachments, so a browser never renders an uploaded file as a page.
    static func response(
        for photo: Photo, _ variant: Paths.PhotoVariant, request: Request, media: MediaStore,
        context: some RequestContext
    ) async throws -> Response {
        let relative: String
        switch variant {
        case .thumb: relative = photo.thumbPath
        case .display: relative = photo.displayPath
        case .original: relative = photo.originalPath
        }
        let etag = "\"\(relative.split(separator: "/").last ?? "")\""
        var headers: HTTPFields = [
            .cacheControl: "private, no-cache", .eTag: etag,
            .contentType: variant == .original ? photo.contentType : "image/jpeg",
        ]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        if variant == .original {
            let fileExtension = URL(fileURLWithPath: relative).pathExtension
            headers[.contentDisposition] = "attachment; filename=\"photo-\(photo.id ?? 0).\(fileExtension)\""
        }
        let body = try await FileIO().loadFile(path: media.url(for: relative).path, context: context)
        return Response(status: .ok, headers: headers, body: body)
    }
}
