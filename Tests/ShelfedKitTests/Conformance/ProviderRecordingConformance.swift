import Foundation
import Testing

@testable import ShelfedKit

extension SharedFixtureConformance {
    /// The providers' decoders and the Gemini mapping over every real recording in `../shared/fixtures/googlebooks`,
    /// `openlibrary` and `gemini`. The expected values were read off the files (see their SOURCES.md).
    @Suite(.enabled(if: SharedFixtures.available, SharedFixtures.skipReason)) struct Providers {
        static func recording(_ path: String) throws -> Data { try Data(contentsOf: SharedFixtures.url(path)) }

        static func google(_ name: String) throws -> GoogleBooksVolumes {
            try JSONDecoder().decode(GoogleBooksVolumes.self, from: recording("googlebooks/\(name)"))
        }

        static func volume(_ name: String) throws -> VolumeResult {
            let volume = try JSONDecoder().decode(GoogleBooksVolume.self, from: recording("googlebooks/\(name)"))
            return try #require(volume.result)
        }

        static func files(in folder: String, prefix: String = "") -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: SharedFixtures.url(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".json") && $0.hasPrefix(prefix) && !$0.hasPrefix("error_") }.sorted()
        }

        // MARK: Google Books

        @Test(arguments: files(in: "googlebooks"))
        func everyRecordedGoogleBooksAnswerParses(file: String) throws {
            if file.hasPrefix("volume_") {
                #expect(try Self.volume(file).title.isEmpty == false)
            } else {
                let volumes = try Self.google(file)
                let results = (volumes.items ?? []).compactMap(\.result)
                #expect(results.count == volumes.items?.count ?? 0)
                #expect(results.allSatisfy { !$0.title.isEmpty })
            }
        }

        @Test func aSearchOfTenWithCurledCoversMadeHTTPS() throws {
            let volumes = try Self.google("search_harry_potter__sfiggis_enumerables.json")
            #expect(volumes.totalItems == 2551)
            let results = (volumes.items ?? []).compactMap(\.result)
            #expect(results.count == 10)
            let first = try #require(results.first)
            #expect(first.volumeId == "gCtazG4ZXlQC" && first.title == "Harry Potter and the Deathly Hallows")
            #expect(first.isbn13 == "9781781100264" && first.isbn10 == "1781100268")
            #expect(first.authors == ["J.K. Rowling"] && first.year == "2015")
            #expect(results.allSatisfy { $0.thumbnailURL?.hasPrefix("https://books.google.com/") == true })
            #expect(results.allSatisfy { $0.thumbnailURL?.contains("edge=curl") == false })
        }

        @Test func theBatmanSearchFromARomanianHost() throws {
            let volumes = try Self.google("search_batman__Founden_doers.json")
            let batman = try #require(volumes.items?.first?.result)
            #expect(volumes.items?.count == 1)
            #expect(batman.title == "Batman: Killing Joke (DELUXE)")
            #expect(batman.authors == ["Brian Bolland", "Alan Moore"])
            #expect(batman.isbn13 == "9781401216672" && batman.pageCount == 64)
            #expect(batman.thumbnailURL?.hasPrefix("https://bks5.books.google.ro/") == true)
        }

        @Test func magazinesWithoutAuthorsOrIdentifiersAndYearMonthDates() throws {
            let results =
                (try Self.google("search_popular_magazines__Shivam12112_react-native-easyBook.json").items ?? [])
                .compactMap(\.result)
            #expect(results.count == 10)
            for magazine in results {
                #expect(magazine.authors.isEmpty && magazine.isbn13 == nil && magazine.isbn10 == nil)
                #expect(magazine.publishedDate?.count == 7)
                #expect(magazine.year?.count == 4)
            }
            #expect(results.first?.title == "Popular Photography" && results.first?.publishedDate == "1995-04")
        }

        @Test func isbnAnswersKeepTheirISBNsCoversAndPages() throws {
            let kittler = try #require(try Self.google("isbn_0804720991__nembrotorg_nembrot.json").items?.first?.result)
            #expect(kittler.volumeId == "nRo0Pk8djjoC" && kittler.title == "Discourse Networks 1800/1900")
            #expect(kittler.carries(try #require(ISBN("0804720991"))))
            #expect(kittler.description?.hasPrefix("This is a highly original book") == true)
            #expect(kittler.categories == ["Literary Criticism"] && kittler.pageCount == 459)
            #expect(kittler.coverURL?.hasPrefix("https://bks9.books.google.co.uk/books?id=nRo0Pk8djjoC") == true)
            #expect(kittler.coverURL?.contains("edge=curl") == false)

            let essays = try #require(try Self.google("isbn_0140446044__nembrotorg_nembrot.json").items?.first?.result)
            #expect(essays.title == "The Complete Essays" && essays.isbn13 == "9780140446043")
            #expect(essays.pageCount == 1360 && essays.categories == ["Literary Collections"])
        }

        @Test func isbnAnswersThatDoNotCarryTheISBNAskedFor() throws {
            let german = try Self.google("isbn_9783551551672_de__debuglevel_bookmetadata-microservice.json")
            let stone = try #require(german.items?.first?.result)
            #expect(stone.title == "Harry Potter und der Stein der Weisen" && stone.publishedDate == "1998-01")
            #expect(stone.isbn13 == nil && stone.isbn10 == nil)
            #expect(!stone.carries(try #require(ISBN("9783551551672"))))

            let fuzzy = try Self.google("isbn_INVALID_ISBN_fuzzy_match_no_imagelinks__nembrotorg_nembrot.json")
            #expect(fuzzy.totalItems == 470)
            let match = try #require(fuzzy.items?.first?.result)
            #expect(match.title == "Invalid Isbn")
            #expect(match.coverURL == nil && match.thumbnailURL == nil)
            #expect(match.pageCount == nil && match.description == nil)
        }

        @Test func fourAuthorsWithoutPublisherOrDescription() throws {
            let volumes = try Self.google("isbn_9783621285674_de__debuglevel_bookmetadata-microservice.json")
            let therapy = try #require(volumes.items?.first?.result)
            #expect(therapy.authors == ["Aaron T. Beck", "A. John Rush", "Brian F. Shaw", "Gary Emery"])
            #expect(therapy.publisher == nil && therapy.description == nil)
            #expect(therapy.isbn13 == "9783621285674")
        }

        @Test(arguments: files(in: "googlebooks", prefix: "empty_results_"))
        func anEmptyAnswerHasNoItemsKey(file: String) throws {
            let volumes = try Self.google(file)
            #expect(volumes.totalItems == 0)
            #expect(volumes.items == nil)
        }

        @Test func aSingleVolumeFieldByFieldWithItsHTMLDescriptionAsText() throws {
            let result = try Self.volume("volume_0yNhEAAAQBAJ__ajluc_lit-link.json")
            #expect(result.title == "Near to the Wild Heart")
            #expect(result.authors == ["Clarice Lispector"])
            #expect(result.publisher == "Random House")
            #expect(result.publishedDate == "2022-04-28")
            #expect(result.pageCount == 208)
            #expect(result.isbn13 == "9780241600504" && result.isbn10 == "0241600502")
            #expect(result.categories.first == "Fiction / Literary")
            #expect(result.language == "en")
            #expect(
                result.coverURL?.hasPrefix("https://books.google.com/books/publisher/content?id=0yNhEAAAQBAJ") == true)
            #expect(result.coverURL?.contains("zoom=6") == true)
            #expect(result.coverURL?.contains("edge=curl") == false)
            let description = try #require(result.description)
            #expect(!description.contains("<"))
            #expect(
                description.hasPrefix(
                    "Clarice Lispector's sensational, prize-winning debut novel Near to the Wild Heart"))
        }

        @Test(arguments: files(in: "googlebooks", prefix: "volume_"))
        func everySingleVolumeHasPlainTextAndTheLargestCleanCover(file: String) throws {
            let result = try Self.volume(file)
            let description = try #require(result.description)
            #expect(!description.contains("<") && !description.contains("&amp;"))
            #expect(result.coverURL?.hasPrefix("https://books.google.com/") == true)
            #expect(result.coverURL?.contains("zoom=6") == true && result.coverURL?.contains("edge=curl") == false)
        }

        @Test func theAnonymousDailyQuotaIsRecognised() throws {
            #expect(
                GoogleBooksError.isDailyQuota(
                    try Self.recording(
                        "googlebooks/error_429_daily_quota_anonymous__page_m.traditio.wiki.json")))
        }
    }
}
