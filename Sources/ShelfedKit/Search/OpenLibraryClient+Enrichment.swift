import Foundation

extension OpenLibraryClient {
    /// The edition with this ISBN, its work and its authors (`/isbn/{isbn}.json` → `/works/…` → `/authors/…`).
    /// Nil when Open Library does not know the ISBN; a missing work or author leaves those parts empty.
    func enrichment(isbn: ISBN) async throws -> EnrichedBook? {
        let data: Data
        do {
            data = try await upstream.get("\(baseURL)/isbn/\(isbn.isbn13).json")
        } catch UpstreamFailure.notFound {
            return nil
        }
        guard let edition = try? JSONDecoder().decode(OpenLibraryEditionRecord.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        var book = EnrichedBook()
        book.edition.id = edition.key.flatMap { Self.identifier($0, under: "/books/") }
        book.edition.numberOfPages = BoundedNumber.plausible(edition.numberOfPages?.value, in: BoundedNumber.pageCount)
        book.edition.physicalFormat = EnrichedBook.clean(edition.physicalFormat)
        book.edition.publishers = (edition.publishers ?? []).prefix(5).compactMap(EnrichedBook.clean)
        book.work.title = EnrichedBook.clean(edition.title)
        var authorKeys = (edition.authors ?? []).compactMap(\.key)
        if let workKey = edition.works?.first?.key, let workID = Self.identifier(workKey, under: "/works/"),
            let workData = try? await upstream.get("\(baseURL)/works/\(workID).json"),
            let work = try? JSONDecoder().decode(OpenLibraryWork.self, from: workData)
        {
            book.work.id = workID
            book.work.title = EnrichedBook.clean(work.title) ?? book.work.title
            book.work.subjects = (work.subjects ?? []).prefix(EnrichedBook.maxSubjects).compactMap(EnrichedBook.clean)
            book.work.firstPublishYear = work.firstPublishDate.flatMap(OpenLibraryDate.normalised)
                .flatMap { BoundedNumber.parse($0.prefix(4), in: BoundedNumber.year) }
            if authorKeys.isEmpty { authorKeys = (work.authors ?? []).compactMap(\.author?.key) }
        }
        for key in authorKeys.prefix(Self.maxAuthors) {
            guard let authorID = Self.identifier(key, under: "/authors/"),
                let authorData = try? await upstream.get("\(baseURL)/authors/\(authorID).json"),
                let author = try? JSONDecoder().decode(OpenLibraryAuthorRecord.self, from: authorData),
                let name = EnrichedBook.clean(author.name)
            else { continue }
            book.authors.append(.init(name: name, key: authorID, birthDate: EnrichedBook.clean(author.birthDate)))
        }
        return book
    }

    /// `OL123W` from `/works/OL123W`: Open Library ids are `OL`, digits and one letter; anything else is ignored,
    /// so a record cannot steer the next request elsewhere.
    static func identifier(_ key: String, under prefix: String) -> String? {
        guard key.hasPrefix(prefix) else { return nil }
        let id = key.dropFirst(prefix.count)
        let digits = id.dropFirst(2).dropLast()
        guard id.hasPrefix("OL"), (1...12).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
            let last = id.last, "AMW".contains(last)
        else { return nil }
        return String(id)
    }
}

/// The parts of an edition record enrichment reads.
struct OpenLibraryEditionRecord: Decodable {
    struct Key: Decodable {
        let key: String?
    }

    let key: String?
    let title: String?
    let publishers: [String]?
    let numberOfPages: FlexibleInt?
    let physicalFormat: String?
    let works: [Key]?
    let authors: [Key]?

    enum CodingKeys: String, CodingKey {
        case key, title, publishers, works, authors
        case numberOfPages = "number_of_pages"
        case physicalFormat = "physical_format"
    }
}

/// A work record: title, description, subjects, first publication and authors (as `{"author": {"key": …}}`).
struct OpenLibraryWork: Decodable {
    struct Role: Decodable {
        let author: OpenLibraryEditionRecord.Key?
    }

    let title: String?
    let description: TextValue?
    let subjects: [String]?
    let firstPublishDate: String?
    let authors: [Role]?

    enum CodingKeys: String, CodingKey {
        case title, description, subjects, authors
        case firstPublishDate = "first_publish_date"
    }
}

struct OpenLibraryAuthorRecord: Decodable {
    let name: String?
    let birthDate: String?

    enum CodingKeys: String, CodingKey {
        case name
        case birthDate = "birth_date"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
