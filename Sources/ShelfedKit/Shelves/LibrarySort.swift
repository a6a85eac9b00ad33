/// How a list of books is ordered: `?sort=added|title|author|finished|rating&order=asc|desc`.
public struct LibrarySort: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        case added, title, author, finished, rating
        /// The year a book was published or a film or show came out.
        case year
        /// A film's length, a show's episodes'; offered when the list is of films or shows.
        case runtime

        var label: String {
            switch self {
            case .added: localized("Date added")
            case .title: localized("Title")
            case .author: localized("Author")
            case .finished: localized("Date finished")
            case .rating: localized("Your rating")
            case .year: localized("Year")
            case .runtime: localized("Running time")
            }
        }

        /// The direction that reads naturally when none is chosen: newest first for dates, A–Z for names, the
        /// shortest first for running times (something to watch tonight).
        var naturalOrder: Order { self == .title || self == .author || self == .runtime ? .asc : .desc }
    }

    public enum Order: String, Sendable, CaseIterable {
        case asc, desc
    }

    public var key: Key
    public var order: Order

    public init(key: Key = .added, order: Order? = nil) {
        self.key = key
        self.order = order ?? key.naturalOrder
    }

    /// Reads the query; unknown values fall back to the default instead of failing the page.
    public init(query sort: String?, order: String?) {
        self.init(key: sort.flatMap(Key.init(rawValue:)) ?? .added, order: order.flatMap(Order.init(rawValue:)))
    }

    /// The `ORDER BY` terms for a query over `user_book` joined to `book`. Built only from the enums,
    /// so no user text reaches the SQL.
    var orderBy: String {
        let primary: String
        switch key {
        case .added: primary = "user_book.added_at"
        // The language-aware keys the catalog keeps (`AppDatabase.migrateToSortKeys`).
        case .title: primary = "book.title_key"
        case .author: primary = "book.author_key"
        case .finished: primary = "user_book.finished_at"
        case .rating: primary = "user_book.rating"
        case .year: primary = LibraryFilters.publishedYear
        case .runtime: primary = "book.runtime_minutes"
        }
        let direction = order == .asc ? "ASC" : "DESC"
        let ordering = "\(primary) \(direction), user_book.id \(direction)"
        switch key {
        case .added, .title:
            // Never null; the plain ordering lets SQLite walk the (user_id, shelf, added_at) index.
            return ordering
        case .author, .finished, .rating, .year, .runtime:
            // Books without a finish date (or author, or rating) sort after the others whichever way the list runs.
            return "(\(primary)) IS NULL, " + ordering
        }
    }
}
