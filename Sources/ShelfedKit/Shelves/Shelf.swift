/// The exclusive shelves a book can be on: the three shelves, and Did not finish beside them (issue 24).
public enum Shelf: String, Codable, Sendable, CaseIterable {
    case wantToRead = "want_to_read"
    case reading
    case read
    case didNotFinish = "did_not_finish"

    /// The path segment under `/shelves/`.
    public var slug: String {
        switch self {
        case .wantToRead: "want-to-read"
        case .reading: "reading"
        case .read: "read"
        case .didNotFinish: "did-not-finish"
        }
    }

    /// The shelf's name as a page says it, in the request's language.
    public var title: String {
        switch self {
        case .wantToRead: localized("Want to read")
        case .reading: localized("Reading")
        case .read: localized("Read")
        case .didNotFinish: localized("Did not finish")
        }
    }

    public init?(slug: String) {
        guard let shelf = Self.allCases.first(where: { $0.slug == slug }) else { return nil }
        self = shelf
    }
}
