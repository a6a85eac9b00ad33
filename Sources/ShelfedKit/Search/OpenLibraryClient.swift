import Foundation

/// Open Library's edition-by-ISBN lookup, the fallback when Google Books has nothing or is failing.
struct OpenLibraryClient: Sendable {
    let baseURL: String
    let coversBaseURL: String
    let upstream: ResilientUpstream
    static let maxAuthors = 3

    /// `GET /isbn/{isbn}.json` (it redirects to the edition), then the authors' names. Nil when unknown.
    ///
    /// With `followingWork`, an edition without a description or subjects is completed from its work
    /// (`/works/{id}.json`): openlibrary.org keeps those mostly on the work, so enrichment asks for it. Interactive
    /// search does not, to stay one request shorter.
    func edition(isbn: ISBN, followingWork: Bool = false) async throws -> VolumeResult? {
        let data: Data
        do {
            data = try await upstream.get("\(baseURL)/isbn/\(isbn.isbn13).json")
        } catch UpstreamFailure.notFound {
            return nil
        }
        guard let edition = try? JSONDecoder().decode(OpenLibraryEdition.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        var work: OpenLibraryWork?
        if followingWork, edition.description?.value == nil || (edition.subjects ?? []).isEmpty,
            let workID = edition.works?.lazy.compactMap({ $0.key.flatMap { Self.identifier($0, under: "/works/") } })
                .first,
            let data = try? await upstream.get("\(baseURL)/works/\(workID).json")
        {
            // A missing or unreadable work leaves the edition as it is rather than losing the lookup.
            work = try? JSONDecoder().decode(OpenLibraryWork.self, from: data)
        }
        var authorKeys = (edition.authors ?? []).compactMap(\.key)
        if authorKeys.isEmpty { authorKeys = (work?.authors ?? []).compactMap(\.author?.key) }
        var names: [String] = []
        for key in authorKeys.prefix(Self.maxAuthors) {
            // Only a well-formed author id is asked for, so a record cannot steer the request to another host; a
            // missing author name leaves the book without it rather than losing the lookup.
            if let authorID = Self.identifier(key, under: "/authors/"),
                let author = try? await upstream.get("\(baseURL)/authors/\(authorID).json"),
                let name = try? JSONDecoder().decode(OpenLibraryAuthor.self, from: author).name
            {
                names.append(name)
            }
        }
        var result = edition.result(authorNames: names, coversBaseURL: coversBaseURL)
        if let work {
            if result?.description == nil { result?.description = work.description?.value.map(DescriptionText.plain) }
            if result?.categories.isEmpty == true { result?.categories = Array((work.subjects ?? []).prefix(5)) }
        }
        if result?.isbn13 == nil { result?.isbn13 = isbn.isbn13 }
        return result
    }
}
