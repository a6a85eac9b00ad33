import Foundation

/// The JSON bodies `/api/v1/titles…` accepts (DESIGN §17).
struct NewTitleRequest: Decodable, Sendable {
    let kind: String
    let ids: TitleJSON.IDs?
    /// The provider a search result came from (`tmdb`, `tvmaze`, `wikidata`), to ask the same one.
    let source: String?
    let title: String?
    let year: Int?
    let shelf: String?
}

extension TitleJSON.IDs: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tmdb = try container.decodeIfPresent(Int.self, forKey: .tmdb)
        tvmaze = try container.decodeIfPresent(Int.self, forKey: .tvmaze)
        imdb = try container.decodeIfPresent(String.self, forKey: .imdb).flatMap(ScreenIDs.imdbID)
        let wikidata = try container.decodeIfPresent(String.self, forKey: .wikidata)
        if let wikidata, ScreenIDs.wikidataID(wikidata) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .wikidata, in: container, debugDescription: "not a Wikidata item id")
        }
        self.wikidata = wikidata
    }
}

/// `PATCH /api/v1/titles/:id`: an absent field is left alone; `"rating": null` clears the rating.
struct TitleChangeRequest: Decodable, Sendable {
    let shelf: String?
    let favourite: Bool?
    let rating: Patch<Double>

    enum CodingKeys: String, CodingKey {
        case shelf, favourite, rating
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shelf = try container.decodeIfPresent(String.self, forKey: .shelf)
        favourite = try container.decodeIfPresent(Bool.self, forKey: .favourite)
        if !container.contains(.rating) {
            rating = .keep
        } else if try container.decodeNil(forKey: .rating) {
            rating = .set(nil)
        } else {
            rating = .set(try container.decode(Double.self, forKey: .rating))
        }
    }
}
