import Foundation

/// Open Library's edition-by-ISBN lookup, the fallback when Google Books has nothing or is failing.
struct OpenLibraryClient: Sendable {
    let baseURL: String
    let coversBaseURL: String
    let upstream: ResilientUpstream
    static let maxAuthors = 3

    /// `GET /isbn/{isbn}.json` (it redirects to the edition), then the authors' names. Nil when unknown.
    func edition(isbn: ISBN) async throws -> VolumeResult? {
        let data: Data
        do {
            data = try await upstream.get("\(baseURL)/isbn/\(isbn.isbn13).json")
        } catch UpstreamFailure.notFound {
            return nil
        }
        guard let edition = try? JSONDecoder().decode(OpenLibraryEdition.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        var names: [String] = []
        for key in (edition.authors ?? []).compactMap(\.key).prefix(Self.maxAuthors) {
            // A missing author name leaves the book without it rather than losing the lookup.
            if let author = try? await upstream.get("\(baseURL)\(key).json"),
                let name = try? JSONDecoder().decode(OpenLibraryAuthor.self, from: author).name
            {
                names.append(name)
            }
        }
        var result = edition.result(authorNames: names, coversBaseURL: coversBaseURL)
        if result?.isbn13 == nil { result?.isbn13 = isbn.isbn13 }
        return result
    }
}
