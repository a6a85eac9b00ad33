import Foundation

/// Wikidata, for films when the household has no TMDB token: no key, CC0, no posters. A search is two requests (the
/// film items matching the words, then their labels), adding a film two more (its statements, then the names of the
/// people and genres they point at).
struct WikidataClient: Sendable {
    let baseURL: String
    let upstream: ResilientUpstream

    /// Items that are films and match `query`, best first.
    func search(_ query: String) async throws -> [ScreenTitle] {
        let found = try await decode(
            WikidataSearchAnswer.self,
            [
                ("action", "query"), ("list", "search"), ("srsearch", query + " haswbstatement:P31=Q11424"),
                ("srlimit", "10"), ("srprop", ""), ("format", "json"),
            ])
        let ids = found.itemIDs
        guard !ids.isEmpty else { return [] }
        let entities = try await entities(ids, props: "labels|descriptions")
        return ids.compactMap { entities[$0]?.searchResult() }
    }

    /// One film with its director, cast, genres, year, running time and ids.
    func movie(id: String) async throws -> ScreenTitle {
        guard let id = ScreenIDs.wikidataID(id),
            let entity = try await entities([id], props: "labels|descriptions|claims")[id],
            entity.isFilm, var title = entity.searchResult()
        else { throw UpstreamFailure.notFound }
        let directors = Array(entity.items("P57").prefix(ScreenLimits.creators))
        let cast = Array(entity.items("P161").prefix(ScreenLimits.castNames))
        let genres = Array(entity.items("P136").prefix(ScreenLimits.genres))
        let wanted = Array(Set(directors + cast + genres))
        let names = wanted.isEmpty ? [:] : try await entities(wanted, props: "labels")
        title.creators = ScreenText.names(directors.map { names[$0]?.label }, limit: ScreenLimits.creators)
        title.cast = ScreenText.names(cast.map { names[$0]?.label }, limit: ScreenLimits.castNames)
        title.genres = ScreenText.names(genres.map { names[$0]?.label }, limit: ScreenLimits.genres)
        return title
    }

    /// `wbgetentities` for at most fifty ids (the API's limit), in English.
    func entities(_ ids: [String], props: String) async throws -> [String: WikidataEntity] {
        let answer = try await decode(
            WikidataEntities.self,
            [
                ("action", "wbgetentities"), ("ids", ids.prefix(50).joined(separator: "|")), ("props", props),
                ("languages", "en"), ("format", "json"),
            ])
        return answer.entities ?? [:]
    }

    func decode<Answer: Decodable>(_ type: Answer.Type, _ items: [(String, String)]) async throws -> Answer {
        var components = URLComponents(string: baseURL + "/w/api.php")!
        components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        let data = try await upstream.get(components.string!)
        guard let answer = try? JSONDecoder().decode(type, from: data) else { throw UpstreamFailure.malformed }
        return answer
    }
}
