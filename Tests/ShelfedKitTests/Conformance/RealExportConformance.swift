import Foundation
import Testing

@testable import ShelfedKit

extension SharedFixtureConformance {
    /// Every real export in `../shared/fixtures/imports/`, read as the importer reads it. The expected figures were
    /// counted from the files themselves (see their SOURCES.md), not taken from running the importer.
    @Suite(.enabled(if: SharedFixtures.available, SharedFixtures.skipReason)) struct RealExports {
        // MARK: Goodreads

        @Test func aRealGoodreadsLibraryOf358Rows() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bsanser_mapmyreads.csv")
            #expect(file.format == .goodreads)
            #expect(file.books.count == 358)
            #expect(file.problems.isEmpty)
            #expect(file.count(on: .known(.wantToRead)) == 339)
            #expect(file.count(on: .known(.read)) == 16)
            #expect(file.count(on: .known(.reading)) == 3)
            #expect(file.books.filter { $0.readThroughs.contains { $0.finishedOn != nil } }.count == 8)
            #expect(file.books.filter { $0.rating != nil }.count == 9)
            // Rows without an ISBN-13 are kept, not dropped.
            #expect(file.books.filter { $0.isbn13 == nil }.count == 56)
            // 64 titles contain commas; 79 rows have additional authors.
            #expect(file.books.filter { $0.title.contains(",") }.count == 64)
            #expect(file.books.filter { $0.authors.count > 1 }.count == 79)
            let silk = try #require(file.book(titled: "The Silk Roads"))
            #expect(silk.isbn13 == "9781408839973" && silk.isbn10 == "1408839970")
            #expect(silk.externalIDs["goodreads"] == "25812847")
            #expect(silk.addedOn == "2025-06-29")
            #expect(silk.readThroughs.isEmpty && silk.rating == nil && silk.lists.isEmpty)
        }

        @Test func readBooksWithoutADateGetNoInventedDate() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bsanser_mapmyreads.csv")
            let read = file.books.filter { $0.shelf == .known(.read) }
            #expect(read.count == 16)
            #expect(read.allSatisfy { $0.readThroughs.count == 1 })
            #expect(read.filter { $0.readThroughs[0].finishedOn == nil }.count == 16 - 8)
        }

        @Test func theOld31ColumnHeaderWithEmptyISBNsAndAReview() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bookwyrm-social_bookwyrm.csv")
            #expect(file.format == .goodreads)
            #expect(file.books.count == 3 && file.problems.isEmpty)
            let gideon = try #require(file.book(titled: "Gideon the Ninth"))
            #expect(gideon.authors == ["Tamsyn Muir"])
            #expect(gideon.isbn13 == "9781250313195")
            #expect(gideon.rating == 3)
            #expect(gideon.readThroughs == [ReadThrough(startedOn: nil, finishedOn: "2020-10-25")])
            #expect(gideon.pageCount == 448 && gideon.publisher == "Tor" && gideon.format == "Hardcover")
            #expect(file.books.filter { $0.isbn13 == nil }.count == 1)
            #expect(file.books.filter { $0.review != nil }.count == 1)
            #expect(file.books.contains { $0.title.contains("é") || $0.authors.joined().contains("é") })
        }

        @Test func ratingZeroMeansUnrated() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bookwyrm-social_bookwyrm_rating.csv")
            #expect(file.books.count == 3)
            #expect(file.books.filter { $0.rating != nil }.count == 1)
            #expect(file.book(titled: "Gideon the Ninth")?.rating == nil)
        }

        @Test func customExclusiveShelvesAndNonExclusiveShelvesBecomeLists() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bayang_jelu_goodreads1.csv")
            #expect(file.books.count == 10 && file.problems.isEmpty)
            #expect(file.count(on: .custom("waiting")) == 1)
            #expect(file.count(on: .known(.read)) == 6)
            #expect(file.count(on: .known(.wantToRead)) == 2)
            #expect(file.count(on: .known(.reading)) == 1)
            let somme = try #require(file.book(titled: "La somme de nos folies"))
            #expect(somme.lists == ["test-aad", "avec-espace"])
            #expect(somme.isbn13 == "9782843048302" && somme.addedOn == "2021-04-02")
            #expect(file.books.contains { $0.authors.contains("谷口 ジロー") })
        }

        @Test func the24ColumnHeaderWithABCYearAndDoubleSpaces() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bayang_jelu_goodreads_library_export-2022.csv")
            #expect(file.format == .goodreads)
            #expect(file.books.count == 10 && file.problems.isEmpty)
            #expect(file.count(on: .custom("waiting")) == 1)
            let gaules = try #require(file.book(titled: "La guerre des Gaules"))
            #expect(gaules.authors == ["Jules César"])
            #expect(gaules.publishedDate == "2011")
            #expect(gaules.format == "kindle_edition")
            #expect(file.books.allSatisfy { book in book.authors.allSatisfy { !$0.contains("  ") } })
            #expect(file.books.contains { $0.authors.contains("Thomas Day") })
        }

        @Test func reviewsWithHTMLBreaksBecomeParagraphs() throws {
            let file = try ImportReadingTests.read(
                real: "goodreads_bayang_jelu_goodreads_library_export_one_line_modified_review.csv")
            #expect(file.books.count == 5)
            #expect(file.books.filter { $0.review != nil }.count == 5)
            #expect(file.books.allSatisfy { ($0.review ?? "").range(of: "<br") == nil })
            #expect(file.books.contains { ($0.review ?? "").contains("\n") })
            let jekyll = try #require(file.book(titled: "Dr Jekyll and Mr Hyde"))
            #expect(jekyll.lists == ["brain", "classic", "fantasy", "horror", "mind", "psychology"])
            #expect(jekyll.rating == 5)
            #expect(jekyll.isbn10 == "014197382X")
        }

        @Test func unicodeTitlesAndManyAdditionalAuthors() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bayang_jelu_goodreads-duplicate-events.csv")
            #expect(file.books.count == 6 && file.problems.isEmpty)
            let gulag = try #require(file.book(titled: "The Gulag Archipelago 1918–1956"))
            #expect(gulag.isbn13 == "9780060007768")
            #expect(file.books.contains { $0.authors.count == 6 })
            #expect(file.books.contains { $0.title.contains(",") && $0.title.contains("#") })
        }

        @Test func the23ColumnHeaderWithoutAverageRatingAndADateHiddenByASpreadsheet() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bayang_jelu_goodreads_2026-10-05.csv")
            #expect(file.format == .goodreads)
            let book = try #require(file.books.first)
            #expect(book.title == "Japanomania in the Nordic Countries, 1875-1918")
            #expect(book.isbn13 == "9780300220117")
            #expect(book.authors == ["Gabriel P. Weisberg", "Anna-Maria von Bonsdorff", "Hanne Selkokari"])
            // Date Added is ########: reported, and no date is made up.
            #expect(book.addedOn == nil)
            #expect(book.notes.contains { $0.contains("########") })
            #expect(book.readThroughs == [ReadThrough()])
        }

        @Test func isbnsWithoutTheirWrapperAndADayMonthDate() throws {
            let file = try ImportReadingTests.read(real: "goodreads_bayang_jelu_clean_isbn_2026-10-07.csv")
            let book = try #require(file.books.first)
            #expect(book.isbn13 == "9780300220117" && book.isbn10 == "0300220111")
            // 20/09/2026 can only be the 20th of September: the column settles it.
            #expect(book.addedOn == "2026-09-20")
            #expect(!book.notes.contains { $0.contains("20/09/2026") })
        }

        // MARK: StoryGraph

        @Test func aRealStoryGraphLibraryWithRangesQuarterStarsAndIds() throws {
            let file = try ImportReadingTests.read(real: "storygraph_bsanser_mapmyreads.csv")
            #expect(file.format == .storygraph)
            #expect(file.books.count == 193 && file.problems.isEmpty)
            #expect(file.count(on: .known(.wantToRead)) == 128)
            #expect(file.count(on: .known(.read)) == 64)
            #expect(file.count(on: .known(.didNotFinish)) == 1)
            #expect(file.books.filter { $0.rating != nil }.count == 18)
            #expect(file.books.contains { $0.rating == 3.75 } && file.books.contains { $0.rating == 4.25 })
            #expect(
                file.books.filter { $0.readThroughs.contains { $0.startedOn != nil && $0.finishedOn != nil } }.count
                    == 34)
            let kaigen = try #require(file.book(titled: "The Sword of Kaigen"))
            #expect(kaigen.readThroughs == [ReadThrough(startedOn: "2025-05-18", finishedOn: "2025-05-26")])
            #expect(kaigen.externalIDs == ["asin": "B07MNWKF2M"] && kaigen.isbn13 == nil)
            #expect(kaigen.rating == 5 && kaigen.format == "digital")
            let handmaid = try #require(file.book(titled: "The Handmaid's Tale"))
            #expect(handmaid.isbn13 == nil && handmaid.externalIDs["storygraph"] == "38549081")
            let charing = try #require(file.book(titled: "84, Charing Cross Road"))
            #expect(charing.isbn13 == nil && charing.externalIDs["storygraph"] == "140143505")
            #expect(file.books.filter { $0.owned == true }.count == 4)
            #expect(file.books.contains { $0.title == "回家之路" })
            // Read with no date at all: a read-through without dates, never today's date.
            let undated = file.books.filter {
                $0.shelf == .known(.read) && $0.readThroughs.allSatisfy { $0.finishedOn == nil }
            }
            #expect(undated.count == 5)
            #expect(file.books.contains { $0.lists.contains("economics") })
        }

        @Test func storyGraphSeveralAuthorsInOneFieldAndDecimalRatings() throws {
            let file = try ImportReadingTests.read(real: "storygraph_bookwyrm-social_bookwyrm.csv")
            #expect(file.books.count == 2)
            let home = try #require(file.book(titled: "Always Coming Home"))
            #expect(home.authors == ["Ursula K. Le Guin", "Todd Barton", "Margaret Chodos-Irvine"])
            #expect(home.shelf == .known(.wantToRead) && home.addedOn == "2021-05-10")
            let crisis = try #require(file.book(titled: "Subprime Attention Crisis"))
            #expect(crisis.rating == 5 && crisis.isbn10 == "0374538654")
            #expect(crisis.readThroughs == [ReadThrough()])
        }

        @Test func anExcelRoundTripReadsTheDatesItSettlesAndReportsTheISBNsRowByRow() throws {
            let file = try ImportReadingTests.read(
                real: "storygraph_dblake26_streaming-02-multiple-processes_excel-mangled.csv")
            #expect(file.format == .storygraph)
            #expect(file.rows.count == 299)
            // The M/D/YYYY columns are settled by their own days over 12 (10/13/2022 …), so only the 115 ISBNs in
            // scientific notation are left for the person to fix: an ISBN cannot be guessed.
            #expect(
                file.problems.allSatisfy { $0.message.contains("scientific") || $0.message.contains("number") },
                "\(file.problems.prefix(3))")
            #expect(file.problems.count == 115)
            #expect(file.books.count == 184)
            let first = try #require(file.rows.first { $0.row == 2 })
            if case .book(let book) = first.reading {
                #expect(book.readThroughs.last?.finishedOn == "2022-10-13")
            } else {
                Issue.record("row 2 should read: \(first.reading)")
            }
        }

        // MARK: Other trackers

        @Test func libraryThingTabsAndWindows1252() throws {
            let file = try ImportReadingTests.read(real: "librarything_bookwyrm-social_bookwyrm.tsv")
            #expect(file.format == .librarything)
            #expect(file.books.count == 3 && file.problems.isEmpty)
            let marelle = try #require(file.book(titled: "Marelle"))
            #expect(marelle.authors == ["Julio Cortazar"])
            #expect(marelle.isbn13 == "9782070291342")
            #expect(marelle.rating == 4.5 && marelle.review == "chef d'oeuvre")
            #expect(marelle.readThroughs == [ReadThrough(startedOn: "2007-04-16", finishedOn: "2007-05-08")])
            #expect(marelle.shelf == .known(.read) && marelle.owned == true)
            #expect(marelle.addedOn == "2006-08-09" && marelle.pageCount == 590 && marelle.publisher == "Gallimard")
            #expect(marelle.lists.contains("expérimental") && marelle.lists.contains("bohème"))
            #expect(marelle.externalIDs["librarything"] == "5498194")
            #expect(file.book(titled: "Le grand incendie de Londres: Récit") != nil)
            let maitre = try #require(file.book(titled: "Le Maître et Marguerite"))
            #expect(maitre.authors == ["Mikhaïl Boulgakov"] && maitre.isbn10 == "2266062328")
        }

        @Test func openreadsReadingsTagsAndFractionalRatings() throws {
            let file = try ImportReadingTests.read(real: "openreads_bookwyrm-social_bookwyrm.csv")
            #expect(file.format == .openreads)
            #expect(file.books.count == 4 && file.problems.isEmpty)
            let record = try #require(file.book(titled: "Permanent Record"))
            #expect(record.favourite && record.rating == 5 && record.shelf == .known(.read))
            #expect(record.readThroughs == [ReadThrough(startedOn: "2023-10-27", finishedOn: "2023-11-28")])
            #expect(record.externalIDs["openlibrary"] == "OL27260330M")
            #expect((record.description ?? "").contains("\n"))
            let divide = try #require(file.book(titled: "The Divide"))
            #expect(divide.rating == 4.5 && divide.pageCount == 347)
            #expect(divide.readThroughs == [ReadThrough(startedOn: nil, finishedOn: "2023-12-10")])
            #expect(divide.lists == ["owned"])
            let wild = try #require(file.book(titled: "Wild Flowers Electric Beasts"))
            #expect(wild.shelf == .known(.wantToRead) && wild.lists == ["Solarpunk"] && wild.addedOn == "2024-03-01")
        }

    }
}
