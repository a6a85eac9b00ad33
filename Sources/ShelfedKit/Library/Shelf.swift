/// The three exclusive shelves a book can be on.
public enum Shelf: String, Codable, Sendable, CaseIterable {
    case wantToRead = "want_to_read"
    case reading
    case read

    /// The path segment under `/shelves/`.
    public var slug: String {
        switch self {
        case .wantToRead: "want-to-read"
        case .reading: "reading"
        case .read: "read"
        }
    }

    public var title: String {
        switch self {
        case .wantToRead: "Want to read"
        case .reading: "Reading"
        case .read: "Read"
        }
    }

    public init?(slug: String) {
        guard let shelf = Self.allCases.first(where: { $0.slug == slug }) else { return nil }
        self = shelf
    }
}
