import Foundation

/// Every link Shelfed builds, in one place so links and routes never drift apart.
enum Paths {
    static let home = "/"
    static let register = "/register"
    static let logout = "/logout"
    static let shelves = "/shelves"
    static let favourites = "/favourites"
    static let profile = "/profile"
    static let newBook = "/books/new"
    static let books = "/books"

    static func login(next: String? = nil) -> String {
        guard let next = safeRelativePath(next), next != "/" else { return "/login" }
        return "/login?next=" + queryEscape(next)
    }

    static func shelf(_ shelf: Shelf) -> String { "/shelves/\(shelf.slug)" }
    static func book(_ id: Int64) -> String { "/books/\(id)" }
    static func bookShelf(_ id: Int64) -> String { "/books/\(id)/shelf" }
    static func bookFavourite(_ id: Int64) -> String { "/books/\(id)/favourite" }
    static func bookDates(_ id: Int64) -> String { "/books/\(id)/dates" }
    static func bookRemove(_ id: Int64) -> String { "/books/\(id)/remove" }

    /// Percent-escapes a query value, including `&`, `=`, `+` and `?` that would otherwise split it.
    static func queryEscape(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
