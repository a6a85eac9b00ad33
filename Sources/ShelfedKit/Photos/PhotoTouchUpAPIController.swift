import Foundation
import Hummingbird

/// Photo touch-ups for Shelfed's own clients (issue 24): `POST /api/v1/photos/:photoID/touch-up` sets the whole edit —
/// quarter turns clockwise and the percent cut from each edge — made from the untouched original; `{}` undoes all.
struct PhotoTouchUpAPIController: Sendable {
    let photos: PhotoStore
    let uploader: PhotoUploader

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.post(APIRoute.photoTouchUp.routerPath, use: touchUp)
    }

    struct Body: Decodable, Sendable {
        struct Edges: Decodable, Sendable {
            let left: Double?
            let top: Double?
            let right: Double?
            let bottom: Double?
        }

        let turns: Int?
        let crop: Edges?
    }

    struct TouchUpJSON: Encodable {
        struct Edges: Encodable {
            let left: Double
            let top: Double
            let right: Double
            let bottom: Double
        }

        let turns: Int
        let crop: Edges
    }

    struct Answer: Encodable {
        let photo: PhotoJSON
        let touchUp: TouchUpJSON

        enum CodingKeys: String, CodingKey {
            case photo
            case touchUp = "touch_up"
        }
    }

    /// POST /api/v1/photos/:photoID/touch-up
    @Sendable func touchUp(_ request: Request, context: APIContext) async throws -> Response {
        guard let id = BoundedNumber.id(context.parameters.get("photoID")),
            let photo = try await photos.photo(id: id, of: context.userID), photo.bookId != nil
        else { throw PhotoAPIController.noSuchPhoto }
        let body = try await JSONBody.decode(Body.self, from: request)
        let turns = body.turns ?? 0
        guard (0...3).contains(turns) else {
            throw HTTPError(.unprocessableContent, message: "turns must be 0 to 3 quarter turns clockwise.")
        }
        let percents = [body.crop?.left, body.crop?.top, body.crop?.right, body.crop?.bottom].map { $0 ?? 0 }
        let crop = PhotoEdit.Crop(
            left: percents[0] / 100, top: percents[1] / 100, right: percents[2] / 100, bottom: percents[3] / 100)
        guard percents.allSatisfy({ (0...90).contains($0) }), crop.isValid else {
            throw HTTPError(
                .unprocessableContent,
                message: "crop edges are percents from 0 to 90, keeping at least 10 percent across and down.")
        }
        guard let updated = try await uploader.touchUps.apply(PhotoEdit(quarterTurns: turns, crop: crop), to: photo)
        else { throw PhotoAPIController.noSuchPhoto }
        let edges = updated.edit.crop
        return JSONBody.response(
            Answer(
                photo: PhotoJSON(updated),
                touchUp: TouchUpJSON(
                    turns: updated.editTurns,
                    crop: .init(
                        left: edges.left * 100, top: edges.top * 100, right: edges.right * 100,
                        bottom: edges.bottom * 100))))
    }
}
