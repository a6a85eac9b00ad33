import Foundation

/// An Open Library edition (`/isbn/{isbn}.json`, `/books/{id}.json`), read leniently.
struct OpenLibraryEdition: Decodable {
    struct Key: Decodable {
        let key: String?
    }

    let title: String?
    let subtitle: String?
    let publishers: [String]?
    let publishDate: String?
    let numberOfPages: FlexibleInt?
    let isbn10: [String]?
    let isbn13: [String]?
    let description: TextValue?
    let covers: [Int]?
    let authors: [Key]?
    let languages: [Key]?
    let subjects: [String]?
    let works: [Key]?
    let series: [String]?

    enum CodingKeys: String, CodingKey {
        case title, subtitle, publishers, description, covers, authors, languages, subjects, works, series
        case publishDate = "publish_date"
        case numberOfPages = "number_of_pages"
        case isbn10 = "isbn_10"
        case isbn13 = "isbn_13"
    }

    /// The cleaned result, with author names looked up separately (editions carry only author keys).
    func result(authorNames: [String], coversBaseURL: String) -> VolumeResult? {
        guard let title = title?.trimmingCharacters(in: .whitespaces), !title.isEmpty else { return nil }
        let isbn13 =
            (isbn13 ?? []).lazy.compactMap { ISBN($0)?.isbn13 }.first
            ?? (isbn10 ?? []).lazy.compactMap { ISBN($0)?.isbn13 }.first
        let isbn10 =
            (isbn10 ?? []).lazy.compactMap { ISBN($0)?.isbn10 }.first
            ?? isbn13.flatMap { ISBN($0)?.isbn10 }
        let cover = covers?.first(where: { $0 > 0 })
        return VolumeResult(
            provider: .openLibrary, volumeId: nil, title: title, subtitle: subtitle, authors: authorNames,
            publisher: publishers?.first, publishedDate: publishDate.flatMap(OpenLibraryDate.normalised),
            description: description?.value.map(DescriptionText.plain),
            pageCount: BoundedNumber.plausible(numberOfPages?.value, in: BoundedNumber.pageCount),
            categories: Array((subjects ?? []).prefix(5)),
            language: languages?.first?.key.map { String($0.split(separator: "/").last ?? "") },
            isbn10: isbn10, isbn13: isbn13,
            coverURL: cover.map { "\(coversBaseURL)/b/id/\($0)-L.jpg" },
            thumbnailURL: cover.map { "\(coversBaseURL)/b/id/\($0)-M.jpg" },
            averageRating: nil, ratingsCount: nil,
            series: (series ?? []).prefix(5).lazy.compactMap(SeriesPlace.fromOpenLibrary).first)
    }
}

/// An Open Library author record; only the name is used.
struct OpenLibraryAuthor: Decodable {
    let name: String?
}

/// Open Library text that is either a plain string or `{"type": "/type/text", "value": "…"}`.
struct TextValue: Decodable {
    let value: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            value = string
        } else {
            struct Typed: Decodable { let value: String? }
            value = try container.decode(Typed.self).value
        }
    }
}

/// A number that some records store as a string.
struct FlexibleInt: Decodable {
    let value: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else {
            value = BoundedNumber.parse((try? container.decode(String.self)) ?? "", in: 0...Int(Int32.max))
        }
    }
}

/// Open Library's free-text publish dates ("1996", "March 1996", "1996-03-02") as Shelfed stores them.
enum OpenLibraryDate {
    static func normalised(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if CalendarDate.isValidPublishedDate(trimmed) { return trimmed }
        // Otherwise keep the four-digit year when there is exactly one.
        let years = trimmed.split(whereSeparator: { !$0.isNumber }).filter { $0.count == 4 }
        return years.count == 1 ? String(years[0]) : nil
    }
}
