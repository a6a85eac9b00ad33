/// The small forms of a book's page and cards, decoded with `URLEncodedFormDecoder` (see `Request.decodeForm`).

/// `POST /books/:id/shelf`: the shelf to move to, and the page to return to.
struct MoveForm: Decodable, Sendable {
    let shelf: Shelf?
    let returnTo: String?

    enum CodingKeys: String, CodingKey {
        case shelf
        case returnTo = "return_to"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        shelf = Shelf(rawValue: try form.trimmed(.shelf))
        returnTo = safeRelativePath(try form.optionalTrimmed(.returnTo))
    }
}

/// `POST /books/:id/favourite`: `1`/`true` or `0`/`false`; absent toggles.
struct FavouriteForm: Decodable, Sendable {
    let favourite: Bool?
    let returnTo: String?

    enum CodingKeys: String, CodingKey {
        case favourite
        case returnTo = "return_to"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        favourite = try form.optionalTrimmed(.favourite).map { $0 == "1" || $0 == "true" }
        returnTo = safeRelativePath(try form.optionalTrimmed(.returnTo))
    }
}

/// `POST /books/:id/dates`: start and finish as typed (checked by the handler, which re-shows them on error).
struct DatesForm: Decodable, Sendable {
    let started: String?
    let finished: String?

    enum CodingKeys: String, CodingKey {
        case started = "started_at"
        case finished = "finished_at"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        started = try form.optionalTrimmed(.started)
        finished = try form.optionalTrimmed(.finished)
    }
}

/// `POST /search/add`: a Google volume id or an ISBN, and the shelf.
struct AddFromSearchForm: Decodable, Sendable {
    let volumeID: String?
    let isbn: String?
    let shelf: Shelf?
    /// Where to go after adding (the scan results page); the new book's page when absent.
    let returnTo: String?

    enum CodingKeys: String, CodingKey {
        case isbn, shelf
        case volumeID = "volume_id"
        case returnTo = "return_to"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        volumeID = try form.optionalTrimmed(.volumeID)
        isbn = try form.optionalTrimmed(.isbn)
        shelf = Shelf(rawValue: try form.trimmed(.shelf))
        returnTo = safeRelativePath(try form.optionalTrimmed(.returnTo))
    }
}
