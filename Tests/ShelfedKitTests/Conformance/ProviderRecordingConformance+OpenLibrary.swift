import Foundation
import Testing

@testable import ShelfedKit

extension SharedFixtureConformance.Providers {
    static func openLibrary<Record: Decodable>(_ type: Record.Type, _ name: String) throws -> Record {
        try JSONDecoder().decode(type, from: recording("openlibrary/\(name)"))
    }

    @Test func sabrielsEditionAsSearchReadsIt() throws {
        let edition = try Self.openLibrary(OpenLibraryEdition.self, "ol_edition__bookwyrm-social_bookwyrm.json")
        let book = try #require(edition.result(authorNames: ["Garth Nix"], coversBaseURL: "https://covers.example"))
        #expect(book.provider == .openLibrary && book.title == "Sabriel")
        #expect(book.publisher == "Harper Trophy" && book.publishedDate == "1996" && book.pageCount == 491)
        #expect(book.description?.hasPrefix("Sabriel, daughter of the necromancer Abhorsen") == true)
        // Only ISBN-10s are listed: the ISBN-13 is worked out from the first.
        #expect(book.isbn13 == "9780060273224" && book.isbn10 == "0060273224")
        #expect(book.language == "eng" && book.categories == ["Fantasy."])
        #expect(book.coverURL == nil)
    }

    @Test func sabrielsEditionAndWorkAsEnrichmentReadsThem() throws {
        let edition = try Self.openLibrary(OpenLibraryEditionRecord.self, "ol_edition__bookwyrm-social_bookwyrm.json")
        #expect(edition.key.flatMap { OpenLibraryClient.identifier($0, under: "/books/") } == "OL22951843M")
        #expect(
            edition.works?.first?.key.flatMap { OpenLibraryClient.identifier($0, under: "/works/") } == "OL15832982W")
        #expect(edition.authors?.compactMap(\.key) == ["/authors/OL382982A"])
        #expect(edition.numberOfPages?.value == 491 && edition.physicalFormat == "Hardcover")
        #expect(edition.publishers == ["Harper Trophy"])

        let work = try Self.openLibrary(OpenLibraryWork.self, "ol_work__bookwyrm-social_bookwyrm.json")
        #expect(work.title == "Sabriel")
        #expect(work.firstPublishDate.flatMap(OpenLibraryDate.normalised) == "1995")
        #expect(work.subjects?.contains("Fantasy") == true && work.subjects?.count == 7)
        #expect(work.authors?.compactMap(\.author?.key) == ["/authors/OL382982A"])
    }

    @Test func aMarkdownDescriptionGivenAsTypeAndValueBecomesItsText() throws {
        let edition = try Self.openLibrary(
            OpenLibraryEdition.self, "ol_edition_markdown__bookwyrm-social_bookwyrm.json")
        let result = try #require(edition.result(authorNames: [], coversBaseURL: "https://covers.example"))
        #expect(result.title == "The Stars with You")
        #expect(result.isbn13 == "9781943899159")
        #expect(result.description?.contains("She didn't choose her garden") == true)
        #expect(result.language == "eng" && result.pageCount == 36 && result.publishedDate == "2022")
    }

    @Test func everyEditionOfAWorkDecodesWithFreeTextDates() throws {
        struct Editions: Decodable {
            let entries: [OpenLibraryEdition]
            let size: Int
        }
        let list = try Self.openLibrary(Editions.self, "ol_edition_list__bookwyrm-social_bookwyrm.json")
        #expect(list.size == 15 && list.entries.count == 15)
        let books = list.entries.compactMap { $0.result(authorNames: [], coversBaseURL: "https://covers.example") }
        #expect(books.count == 15 && books.allSatisfy { $0.title == "Sabriel" })
        // "November 2006", "April 22, 2008", "1995": each keeps its one four-digit year.
        #expect(books.allSatisfy { $0.publishedDate?.count == 4 })
        #expect(books.filter { $0.pageCount != nil }.count == 8)
        #expect(books.filter { $0.coverURL != nil }.count == 8)
        #expect(books.allSatisfy { $0.isbn13 != nil })
        #expect(books.first?.language == "spa" && books.first?.publishedDate == "2006")
    }
}
