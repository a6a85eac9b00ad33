import Foundation

/// `POST /api/v1/books`: a provider's book by `volume_id` or `isbn`, or one typed in (`title` and the rest,
/// checked by the add-by-hand form's rules), put on `shelf_id` (default 2, Want to Read).
struct NewBookRequest: Decodable, Sendable {
    var isbn: String?
    var volumeID: String?
    var title: String?
    var authors: [String]?
    var publisher: String?
    var publishedDate: String?
    var description: String?
    var pageCount: Int?
    var shelfID: Int?

    enum CodingKeys: String, CodingKey {
        case isbn, title, authors, publisher, description
        case volumeID = "volume_id"
        case publishedDate = "published_date"
        case pageCount = "page_count"
        case shelfID = "shelf_id"
    }

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: CodingKeys.self)
        isbn = try body.decodeIfPresent(String.self, forKey: .isbn)
        volumeID = try body.decodeIfPresent(String.self, forKey: .volumeID)
        title = try body.decodeIfPresent(String.self, forKey: .title)
        // One name or a list, as different apps send them.
        if let list = try? body.decodeIfPresent([String].self, forKey: .authors) {
            authors = list
        } else {
            authors = try body.decodeIfPresent(String.self, forKey: .authors).map { [$0] }
        }
        publisher = try body.decodeIfPresent(String.self, forKey: .publisher)
        publishedDate = try body.decodeIfPresent(String.self, forKey: .publishedDate)
        description = try body.decodeIfPresent(String.self, forKey: .description)
        pageCount = try body.decodeIfPresent(Int.self, forKey: .pageCount)
        shelfID = try body.decodeIfPresent(Int.self, forKey: .shelfID)
    }

    /// The same form the add-by-hand page checks, filled from this request.
    var form: NewBookForm {
        var form = NewBookForm()
        let trimmed = { (text: String?) in text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }
        form.title = trimmed(title)
        form.authors = (authors ?? []).map { trimmed($0) }.filter { !$0.isEmpty }.joined(separator: ", ")
        form.isbn = trimmed(isbn)
        form.publisher = trimmed(publisher)
        form.publishedDate = trimmed(publishedDate)
        form.pageCount = pageCount.map(String.init) ?? ""
        form.description = trimmed(description)
        return form
    }
}

/// `PATCH /api/v1/books/:id`: any of `shelf_id`, `favourite`, `started_at`, `finished_at`, `rating`, `comments`;
/// `null` clears a date, the rating or the comments, an absent field is left alone.
struct BookChangeRequest: Decodable, Sendable {
    let change: EntryChange
    let shelfID: Int?

    enum CodingKeys: String, CodingKey {
        case favourite, rating, comments
        case shelfID = "shelf_id"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
    }

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: CodingKeys.self)
        var change = EntryChange()
        shelfID = try body.decodeIfPresent(Int.self, forKey: .shelfID)
        change.shelf = shelfID.flatMap { Shelf(readerID: $0) }
        change.favourite = try body.decodeIfPresent(Bool.self, forKey: .favourite)
        change.started = try Self.patch(body, .startedAt)
        change.finished = try Self.patch(body, .finishedAt)
        change.rating = try Self.patch(body, .rating)
        change.review = try Self.patch(body, .comments)
        self.change = change
    }

    private static func patch<Value: Decodable & Sendable>(
        _ body: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> Patch<Value> {
        guard body.contains(key) else { return .keep }
        return try body.decodeNil(forKey: key) ? .set(nil) : .set(body.decode(Value.self, forKey: key))
    }
}
