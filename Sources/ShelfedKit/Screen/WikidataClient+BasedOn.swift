import Foundation

extension WikidataClient {
    /// A work a film or show is based on (P144), with its first author (P50) where Wikidata names one.
    struct Source: Sendable, Equatable {
        let itemID: String
        let title: String
        let author: String?
    }

    /// The item whose `property` is `value` — a TMDB film id (P4947), TMDB show id (P4983), TVmaze id (P8600) or
    /// IMDb id (P345, `tt…`) — when Wikidata has one.
    func item(with property: String, value: String) async throws -> String? {
        let isNumber = !value.isEmpty && value.utf8.count <= 20 && value.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        guard property.utf8.allSatisfy({ $0 == UInt8(ascii: "P") || (0x30...0x39).contains($0) }),
            isNumber || (property == "P345" && ScreenIDs.imdbID(value) != nil)
        else { return nil }
        return try await decode(
            WikidataSearchAnswer.self,
            [
                ("action", "query"), ("list", "search"), ("srsearch", "haswbstatement:\(property)=\(value)"),
                ("srlimit", "1"), ("srprop", ""), ("format", "json"),
            ]
        ).itemIDs.first
    }

    /// What item `id` is based on: at most five works, each with its English label (a work without one is left
    /// out) and its first author's.
    func basedOn(_ id: String) async throws -> [Source] {
        guard let id = ScreenIDs.wikidataID(id), let entity = try await entities([id], props: "claims")[id] else {
            return []
        }
        let works = Array(entity.items("P144").prefix(5))
        guard !works.isEmpty else { return [] }
        let found = try await entities(works, props: "labels|claims")
        let authorIDs = Array(Set(works.compactMap { found[$0]?.items("P50").first }))
        let authors = authorIDs.isEmpty ? [:] : try await entities(authorIDs, props: "labels")
        return works.compactMap { work in
            guard let title = found[work]?.label else { return nil }
            return Source(
                itemID: work, title: title, author: found[work]?.items("P50").first.flatMap { authors[$0]?.label })
        }
    }
}
