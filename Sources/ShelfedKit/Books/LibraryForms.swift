/// The small forms of a book's page and cards, decoded with `URLEncodedFormDecoder` (see `Request.decodeForm`).

/// `POST /books/:id/shelf`: the shelf to move to, and the page to return to.
struct MoveForm: Decodable, Sendable {
    let shelf: Shelf?
    let returnTo: String?
    /// An Undo from the notice of the move before: the dates the book had then come back exactly.
    let undo: Bool
    let restoreStarted: String?
    let restoreFinished: String?

    enum CodingKeys: String, CodingKey {
        case shelf, undo
        case returnTo = "return_to"
        case restoreStarted = "restore_started"
        case restoreFinished = "restore_finished"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        shelf = Shelf(rawValue: try form.trimmed(.shelf))
        returnTo = safeRelativePath(try form.optionalTrimmed(.returnTo))
        undo = try form.optionalTrimmed(.undo) == "1"
        restoreStarted = try form.optionalTrimmed(.restoreStarted).flatMap { CalendarDate.isValidDay($0) ? $0 : nil }
        restoreFinished = try form.optionalTrimmed(.restoreFinished).flatMap { CalendarDate.isValidDay($0) ? $0 : nil }
    }
}

/// `POST /books/:id/favourite`: `1`/`true` or `0`/`false`; absent toggles.
struct FavouriteForm: Decodable, Sendable {
    let favourite: Bool?
    let returnTo: String?
    let undo: Bool

    enum CodingKeys: String, CodingKey {
        case favourite, undo
        case returnTo = "return_to"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        favourite = try form.optionalTrimmed(.favourite).map { $0 == "1" || $0 == "true" }
        returnTo = safeRelativePath(try form.optionalTrimmed(.returnTo))
        undo = try form.optionalTrimmed(.undo) == "1"
    }
}

/// `POST /books/:id/dates`: start and finish as typed (checked by the handler, which re-shows them on error).
struct DatesForm: Decodable, Sendable {
    let started: String?
    let finished: String?
    /// The list a toast's "Finished today, or when?" was answered on.
    let returnTo: String?

    enum CodingKeys: String, CodingKey {
        case started = "started_at"
        case finished = "finished_at"
        case returnTo = "return_to"
    }

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: CodingKeys.self)
        started = try form.optionalTrimmed(.started)
        finished = try form.optionalTrimmed(.finished)
        returnTo = safeRelativePath(try form.optionalTrimmed(.returnTo))
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
