import Foundation
import Hummingbird

/// Photos and lists shared with the household by choice (issue 25): the owner's switch, and the pages the others
/// open from the house feed. Anything not shared, or whose owner stopped sharing, is a 404 like an unknown id.
struct SharedItemsController: Sendable {
    let sharing: HouseholdSharing
    let lists: ReadingListStore
    let media: MediaStore
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.photoShare.routerPath, use: sharePhoto)
        router.post(Route.listShare.routerPath, use: shareList)
        router.get(Route.housePhoto.routerPath, use: photo)
        router.get(Route.housePhotoFile.routerPath, use: photoFile)
        router.get(Route.houseList.routerPath, use: list)
    }

    /// POST /photos/:photoID/share (`shared`: 1 to share, anything else to stop)
    @Sendable func sharePhoto(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let shared = try await request.formFields()["shared"] == "1"
        guard let id = BoundedNumber.id(context.parameters.get("photoID")),
            try await sharing.setPhotoShared(shared, photoID: id, of: context.userID, now: clock.now())
        else { throw HTTPError(.notFound, message: localized("There is no such photo. It may have been deleted.")) }
        return .seeOther(
            ActionNotice.link(Paths.photo(id), adding: [("saved", shared ? "shared" : "unshared")]) + "#share-heading")
    }

    /// POST /lists/:listID/share (`shared`: 1 to share, anything else to stop)
    @Sendable func shareList(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let shared = try await request.formFields()["shared"] == "1"
        guard let id = BoundedNumber.id(context.parameters.get("listID")),
            try await sharing.setListShared(shared, listID: id, of: context.userID, now: clock.now())
        else {
            throw AppError.notFound(
                localized("There is no such list. It may have been deleted; your lists are under Lists."))
        }
        return .seeOther(ActionNotice.link(Paths.list(id), adding: [("saved", shared ? "shared" : "unshared")]))
    }

    /// GET /house/photos/:photoID
    @Sendable func photo(_ request: Request, context: SignedInContext) async throws -> HTML {
        let shared = try await requirePhoto(context)
        return try renderer.render(HousePhotoPage(shared, context: context), template: "household/photo")
    }

    /// GET /house/photos/:photoID/thumb|display: never the original, which stays its owner's download.
    @Sendable func photoFile(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let variant = context.parameters.get("variant").flatMap(Paths.PhotoVariant.init(rawValue:)),
            variant != .original
        else { throw HTTPError(.notFound) }
        let shared = try await requirePhoto(context)
        return try await PhotoFile.response(
            for: shared.photo, variant, request: request, media: media, context: context)
    }

    /// GET /house/lists/:listID[?page=]
    @Sendable func list(_ request: Request, context: SignedInContext) async throws -> HTML {
        guard let id = BoundedNumber.id(context.parameters.get("listID")),
            let list = try await sharing.sharedList(id, for: context.userID)
        else { throw AppError.notFound(localized("There is no such list, or it is no longer shared.")) }
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let pageNumber = query["page"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.listPage) } ?? 1
        let (items, total) = try await lists.items(of: list.id, for: list.ownerID, page: pageNumber)
        let viewerBooks = try await sharing.viewersCopies(of: items.map(\.item.bookID), for: context.userID)
        let page = HouseListPage(
            list, items: items, total: total, pageNumber: pageNumber, viewerBooks: viewerBooks, context: context)
        return try renderer.render(page, template: "household/list")
    }

    private func requirePhoto(_ context: SignedInContext) async throws -> HouseholdSharing.SharedPhoto {
        guard let id = BoundedNumber.id(context.parameters.get("photoID")),
            let shared = try await sharing.sharedPhoto(id, for: context.userID)
        else { throw AppError.notFound(localized("There is no such photo, or it is no longer shared.")) }
        return shared
    }
}
