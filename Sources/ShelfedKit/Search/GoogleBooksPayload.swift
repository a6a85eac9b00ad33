import Foundation

/// The parts of Google Books' JSON that Shelfed reads. Everything is optional: recordings show any
/// field missing, including `items` when nothing matched.
struct GoogleBooksVolumes: Decodable {
    let totalItems: Int?
    let items: [GoogleBooksVolume]?
}

struct GoogleBooksVolume: Decodable {
    struct Info: Decodable {
        struct Identifier: Decodable {
            let type: String?
            let identifier: String?
        }

        struct ImageLinks: Decodable {
            let smallThumbnail, thumbnail, small, medium, large, extraLarge: String?
        }

        let title: String?
        let subtitle: String?
        let authors: [String]?
        let publisher: String?
        let publishedDate: String?
        let description: String?
        let industryIdentifiers: [Identifier]?
        let pageCount: Int?
        let categories: [String]?
        let averageRating: Double?
        let ratingsCount: Int?
        let imageLinks: ImageLinks?
        let language: String?
    }

    let id: String?
    let volumeInfo: Info?

    /// The cleaned result, or nil for a volume without an id or a title.
    var result: VolumeResult? {
        guard let id, let info = volumeInfo, let title = info.title?.trimmingCharacters(in: .whitespaces),
            !title.isEmpty
        else { return nil }
        var isbn10: String?
        var isbn13: String?
        for identifier in info.industryIdentifiers ?? [] {
            guard let value = identifier.identifier else { continue }
            switch identifier.type {
            case "ISBN_13": isbn13 = ISBN(value)?.isbn13 ?? isbn13
            case "ISBN_10": isbn10 = ISBN(value)?.isbn10 ?? isbn10
            default: continue
            }
        }
        if isbn13 == nil, let isbn10 { isbn13 = ISBN(isbn10)?.isbn13 }
        let links = info.imageLinks
        let largest = [
            links?.extraLarge, links?.large, links?.medium, links?.small, links?.thumbnail,
            links?.smallThumbnail,
        ].compactMap { $0 }.first
        let small = [links?.thumbnail, links?.smallThumbnail, links?.small].compactMap { $0 }.first
        return VolumeResult(
            provider: .googleBooks, volumeId: id, title: title, subtitle: info.subtitle,
            authors: info.authors ?? [], publisher: info.publisher, publishedDate: info.publishedDate,
            description: info.description.map(DescriptionText.plain),
            pageCount: BoundedNumber.plausible(info.pageCount, in: BoundedNumber.pageCount),
            categories: info.categories ?? [], language: info.language, isbn10: isbn10, isbn13: isbn13,
            coverURL: largest.map(CoverLink.cleaned), thumbnailURL: small.map(CoverLink.cleaned),
            averageRating: info.averageRating, ratingsCount: info.ratingsCount)
    }
}

/// Google's error bodies: `{"error": {"code", "message", "errors": [{"reason"}], "details": [...]}}`.
enum GoogleBooksError {
    /// A per-day quota is spent until tomorrow; retrying the same day only burns more of it.
    static func isDailyQuota(_ body: Data) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        return text.contains("per day") || text.contains("PerDay") || text.contains("1/d/")
    }
}

/// Cover links as Google gives them (`http://`, `&edge=curl`), made fit to download.
enum CoverLink {
    /// Rewrites Google's hosts to https and drops the page-curl effect; other hosts are left alone.
    static func cleaned(_ link: String) -> String {
        guard var components = URLComponents(string: link) else { return link }
        if components.scheme == "http", let host = components.host,
            host.hasSuffix("google.com") || host.hasSuffix("googleusercontent.com") || host.hasSuffix("google.co.uk")
                || host.contains(".google.")
        {
            components.scheme = "https"
        }
        let kept = components.queryItems?.filter { $0.name != "edge" } ?? []
        components.queryItems = kept.isEmpty ? nil : kept
        return components.string ?? link
    }
}
