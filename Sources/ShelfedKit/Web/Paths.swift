import Foundation

/// Every link Shelfed builds, in one place so links and routes never drift apart.
enum Paths {
    static let home = "/"
    static let shelves = "/shelves"
    static let favourites = "/favourites"
    static let profile = "/profile"
    static let profileEdit = "/profile/edit"
    static let newBook = "/books/new"
    static let books = "/books"

    static func login(next: String? = nil) -> String {
        guard let next = safeRelativePath(next), next != "/" else { return "/login" }
        return "/login?next=" + queryEscape(next)
    }

    static let search = "/search"

    static func search(_ text: String, field: SearchRequest.Field = .all, start: Int = 0) -> String {
        var path = "/search?q=" + queryEscape(text)
        if field != .all { path += "&field=" + field.rawValue }
        if start > 0 { path += "&start=\(start)" }
        return path
    }

    static func searchVolume(_ volumeID: String) -> String {
        "/search/volumes/" + pathSegment(volumeID)
    }

    /// The manual-add form filled in from a search that could not be answered.
    static func newBook(prefilledFrom request: SearchRequest) -> String {
        guard !request.text.isEmpty else { return newBook }
        if let isbn = request.isbn { return newBook + "?isbn=" + queryEscape(isbn.isbn13) }
        let field = request.field == .author ? "authors" : "title"
        return newBook + "?\(field)=" + queryEscape(request.text)
    }

    enum PhotoVariant: String, Sendable {
        case thumb, display, original
    }

    static func bookPhotos(_ bookID: Int64) -> String { "/books/\(bookID)/photos" }
    static func newBookPhoto(_ bookID: Int64) -> String { "/books/\(bookID)/photos/new" }
    static func photo(_ id: Int64) -> String { "/photos/\(id)" }
    static func photoDelete(_ id: Int64) -> String { "/photos/\(id)/delete" }
    static func photoFile(_ id: Int64, _ variant: PhotoVariant) -> String { "/photos/\(id)/\(variant.rawValue)" }
    static let avatar = "/profile/avatar"

    static func shelf(_ shelf: Shelf) -> String { "/shelves/\(shelf.slug)" }
    static func book(_ id: Int64) -> String { "/books/\(id)" }
    static func bookShelf(_ id: Int64) -> String { "/books/\(id)/shelf" }
    static func bookFavourite(_ id: Int64) -> String { "/books/\(id)/favourite" }
    static func bookDates(_ id: Int64) -> String { "/books/\(id)/dates" }
    static func bookRemove(_ id: Int64) -> String { "/books/\(id)/remove" }

    /// Percent-escapes one path segment (such as a Google volume id) so it cannot add segments or a query.
    static func pathSegment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-_"))) ?? value
    }

    /// Percent-escapes a query value, including `&`, `=`, `+` and `?` that would otherwise split it.
    static func queryEscape(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
