import Foundation
import Hummingbird

/// The profile tab: who the user is, how their shelves add up, their uploads and their picture.
struct ProfileController: Sendable {
    let library: LibraryStore
    let photos: PhotoStore
    let uploader: PhotoUploader
    let renderer: PageRenderer
    let clock: AppClock
    let maxUploadBytes: Int
    static let uploadsShown = 12

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get("/profile", use: show)
        router.post("/profile/avatar", use: updateAvatar)
    }

    /// GET /profile
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let user = try context.requireUser()
        async let counts = library.counts(of: user.id!)
        async let uploads = photos.latestUploads(of: user.id!, limit: Self.uploadsShown)
        let (shelfCounts, latest) = try await (counts, uploads)
        let page = ProfilePage(
            chrome: PageChrome(title: "Profile", context: context, tab: .profile),
            displayName: user.displayName, username: user.username,
            memberSince: user.createdAt.formatted(.dateTime.year().month(.wide).day()),
            avatarURL: user.avatarPhotoId.map { Paths.photoFile($0, .thumb) } ?? "/static/img/avatar-placeholder.svg",
            wantToRead: shelfCounts[.wantToRead], reading: shelfCounts[.reading], read: shelfCounts[.read],
            favourites: shelfCounts.favourites, uploads: latest.map { PhotoThumb($0.photo, bookTitle: $0.bookTitle) },
            maxUploadMB: maxUploadBytes / 1_048_576)
        return try renderer.render(page, template: "profile/show")
    }

    /// POST /profile/avatar (multipart: `_csrf`, then `photo`): a new picture replaces the old one and its files.
    @Sendable func updateAvatar(_ request: Request, context: AppRequestContext) async throws -> Response {
        let userID = try context.requireUser().id!
        let upload = try await request.receiveMultipart(
            fileField: "photo", maxBytes: maxUploadBytes, csrfToken: context.csrfToken,
            temporaryFile: { uploader.media.temporaryFile() })
        guard let file = upload.files.first else {
            upload.discardFiles()
            throw HTTPError(.badRequest, message: "Choose a picture for your profile, then press Save.")
        }
        defer { upload.discardFiles() }
        let photo = try await uploader.store(
            file, userID: userID, details: .init(squareThumbnail: true), now: clock.now())
        if let replaced = try await photos.setAvatar(photo.id!, for: userID) {
            uploader.media.remove(replaced.files)
        }
        return .seeOther(Paths.profile)
    }
}

/// `profile/show`
struct ProfilePage: Sendable {
    let chrome: PageChrome
    let displayName: String
    let username: String
    let memberSince: String
    let avatarURL: String
    let wantToRead: Int
    let reading: Int
    let read: Int
    let favourites: Int
    let uploads: [PhotoThumb]
    let maxUploadMB: Int
}
