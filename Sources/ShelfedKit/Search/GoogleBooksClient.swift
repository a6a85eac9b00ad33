import Foundation

/// Google Books' volumes API: search and single volumes, parsed into `VolumeResult`s.
struct GoogleBooksClient: Sendable {
    let baseURL: String
    let apiKey: String?
    let upstream: ResilientUpstream
    static let pageSize = 20

    /// `GET /volumes?q=…&startIndex=…&maxResults=20`
    func search(_ query: String, startIndex: Int) async throws -> VolumeSearchResults {
        var items = [
            URLQueryItem(name: "q", value: query), URLQueryItem(name: "startIndex", value: String(startIndex)),
            URLQueryItem(name: "maxResults", value: String(Self.pageSize)),
        ]
        if let apiKey { items.append(URLQueryItem(name: "key", value: apiKey)) }
        let data = try await upstream.get(url("/volumes", items))
        guard let payload = try? JSONDecoder().decode(GoogleBooksVolumes.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        return VolumeSearchResults(
            totalItems: payload.totalItems ?? 0, items: (payload.items ?? []).compactMap(\.result))
    }

    /// `GET /volumes/{id}`
    func volume(id: String) async throws -> VolumeResult {
        let items = apiKey.map { [URLQueryItem(name: "key", value: $0)] } ?? []
        let data = try await upstream.get(url("/volumes/" + Paths.pathSegment(id), items))
        guard let payload = try? JSONDecoder().decode(GoogleBooksVolume.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        guard let result = payload.result else { throw UpstreamFailure.notFound }
        return result
    }

    private func url(_ path: String, _ items: [URLQueryItem]) -> String {
        var components = URLComponents(string: baseURL + path)!
        components.queryItems = items
        // URLComponents leaves `+` alone, which servers read as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string!
    }
}
