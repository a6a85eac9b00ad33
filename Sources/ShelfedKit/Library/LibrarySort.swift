import GRDB

/// How a list of books is ordered: `?sort=added|title|author|finished&order=asc|desc`.
public struct LibrarySort: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        case added, title, author, finished

        var label: String {
            switch self {
            case .added: "Date added"
            case .title: "Title"
            case .author: "Author"
            case .finished: "Date finished"
            }
        }

        /// The direction that reads naturally when none is chosen: newest first for dates, A–Z for names.
        var naturalOrder: Order { self == .title || self == .author ? .asc : .desc }
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

    /// The ordering terms for a `user_book` request whose book is aliased `book`.
    func orderings(book: TableAlias<Book>) -> [any SQLOrderingTerm] {
        let primary: SQLExpression
        switch key {
        case .added: primary = Column("added_at").sqlExpression
        case .title: primary = book[Column("title")].collating(.nocase).sqlExpression
        case .author: primary = SQL("json_extract(\(book[Column("authors")]), '$[0]') COLLATE NOCASE").sqlExpression
        case .finished: primary = Column("finished_at").sqlExpression
        }
        let tiebreak = Column("id")
        // Books without a finish date sort after the dated ones whichever way the list runs.
        let undatedLast = SQL("\(primary) IS NULL").sqlExpression.asc
        switch order {
        case .asc: return [undatedLast, primary.asc, tiebreak.asc]
        case .desc: return [undatedLast, primary.desc, tiebreak.desc]
        }
    }
}
