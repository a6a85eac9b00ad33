/// One book in Open Library's work / edition / authors model, as the BooksTrack app's enrichment reads it
/// (DESIGN §6). Every text is plain and length-capped; absent values are nil, never invented.
public struct EnrichedBook: Codable, Sendable, Equatable {
    public struct Work: Codable, Sendable, Equatable {
        public var id: String?
        public var title: String?
        public var subjects: [String] = []
        public var firstPublishYear: Int?
    }

    public struct Edition: Codable, Sendable, Equatable {
        public var id: String?
        public var numberOfPages: Int?
        public var physicalFormat: String?
        public var publishers: [String] = []
    }

    public struct Author: Codable, Sendable, Equatable {
        public var name: String
        public var key: String?
        public var birthDate: String?
    }

    public var work = Work()
    public var edition = Edition()
    public var authors: [Author] = []

    static let maxText = 500
    static let maxSubjects = 30

    /// Fills what Open Library left empty from a provider's volume (Google Books).
    mutating func fillGaps(from volume: VolumeResult) {
        if work.title == nil { work.title = Self.clean(volume.title) }
        if work.subjects.isEmpty {
            work.subjects = Array(volume.categories.prefix(Self.maxSubjects)).compactMap(Self.clean)
        }
        if work.firstPublishYear == nil {
            work.firstPublishYear = volume.year.flatMap { BoundedNumber.parse($0, in: BoundedNumber.year) }
        }
        if edition.numberOfPages == nil {
            edition.numberOfPages = BoundedNumber.plausible(volume.pageCount, in: BoundedNumber.pageCount)
        }
        if edition.publishers.isEmpty { edition.publishers = [volume.publisher].compactMap { $0.flatMap(Self.clean) } }
        if authors.isEmpty { authors = volume.authors.compactMap(Self.clean).map { Author(name: $0) } }
    }

    var isEmpty: Bool { work.title == nil && authors.isEmpty && edition.id == nil }

    /// Plain text without control characters, at most `maxText` characters; nil when nothing is left.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let scalars = text.unicodeScalars.filter { !$0.properties.generalCategory.isControlOrFormat }
        let trimmed = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(maxText))
    }
}

// Absent values are written as null, not left out: the BooksTrack app expects every key.
extension EnrichedBook.Work {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(subjects, forKey: .subjects)
        try container.encode(firstPublishYear, forKey: .firstPublishYear)
    }
}

extension EnrichedBook.Edition {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(numberOfPages, forKey: .numberOfPages)
        try container.encode(physicalFormat, forKey: .physicalFormat)
        try container.encode(publishers, forKey: .publishers)
    }
}

extension EnrichedBook.Author {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(key, forKey: .key)
        try container.encode(birthDate, forKey: .birthDate)
    }
}
