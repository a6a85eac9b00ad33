import Foundation

/// TVmaze, for shows when the household has no TMDB token: no key, and the credit "Data from TVmaze" wherever its
/// data shows (CC BY-SA).
struct TVmazeClient: Sendable {
    let baseURL: String
    let upstream: ResilientUpstream

    /// `/search/shows?q=`: at most ten hits, best first.
    func search(_ query: String) async throws -> [ScreenTitle] {
        let data = try await upstream.get(url("/search/shows", [URLQueryItem(name: "q", value: query)]))
        guard let hits = try? JSONDecoder().decode([TVmazeSearchHit].self, from: data) else {
            throw UpstreamFailure.malformed
        }
        return hits.compactMap { $0.show?.title(images: TVmazeImages(baseURL: baseURL)) }
            .prefix(ScreenLimits.searchResults).map { $0 }
    }

    /// `/shows/{id}` with its episodes, cast and crew embedded: one request for everything a show page needs. A
    /// daily soap's episodes can make that answer too large to take: the show is then asked for without them, and
    /// added without its episode list rather than not at all.
    func show(id: Int) async throws -> ScreenTitle {
        let people = [URLQueryItem(name: "embed[]", value: "cast"), URLQueryItem(name: "embed[]", value: "crew")]
        let data: Data
        do {
            data = try await upstream.get(
                url("/shows/\(id)", [URLQueryItem(name: "embed[]", value: "episodes")] + people))
        } catch UpstreamFailure.tooLarge {
            data = try await upstream.get(url("/shows/\(id)", people))
        }
        guard let show = try? JSONDecoder().decode(TVmazeShow.self, from: data) else { throw UpstreamFailure.malformed }
        guard let title = show.title(images: TVmazeImages(baseURL: baseURL)) else { throw UpstreamFailure.notFound }
        return title
    }

    /// `/lookup/shows?imdb=`: TVmaze's id for the show IMDb numbers `imdbID`, nil when TVmaze knows none (it
    /// answers 404). TVmaze answers with a redirect to the show, which the client follows.
    func lookup(imdb imdbID: String) async throws -> Int? {
        guard let imdbID = ScreenIDs.imdbID(imdbID) else { return nil }
        let data: Data
        do {
            data = try await upstream.get(url("/lookup/shows", [URLQueryItem(name: "imdb", value: imdbID)]))
        } catch UpstreamFailure.notFound {
            return nil
        }
        guard let show = try? JSONDecoder().decode(TVmazeLookedUp.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        return show.id.flatMap { $0 > 0 ? $0 : nil }
    }

    /// What a lookup's answer is read for.
    private struct TVmazeLookedUp: Decodable {
        let id: Int?
    }

    private func url(_ path: String, _ items: [URLQueryItem]) -> String {
        var components = URLComponents(string: baseURL + path)!
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string!
    }
}
