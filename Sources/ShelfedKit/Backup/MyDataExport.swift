import Foundation

/// One person's data, in plain JSON that any program can read.
struct MyDataExport: Encodable {
    struct BookEntry: Encodable {
        /// `book`, `movie` or `show` (issue 37); a film's running time beside it.
        let kind: String
        let runtimeMinutes: Int?
        let title: String
        let subtitle: String?
        let authors: [String]
        let isbn13: String?
        let isbn10: String?
        let publisher: String?
        let publishedDate: String?
        let pageCount: Int?
        let series: String?
        let seriesPosition: Double?
        let shelf: String
        let favourite: Bool
        let rating: Double?
        let review: String?
        let privateNotes: String?
        let owned: Bool?
        let format: String?
        let addedAt: Date
        let startedOn: String?
        let finishedOn: String?
        let reads: [ReadThrough]
        let lists: [String]
        let externalIds: [String: String]
        let currentPage: Int?
        let currentPercent: Double?
        /// The reading journal, oldest first.
        let journal: [JournalLine]
    }

    struct JournalLine: Encodable {
        let readOn: String
        let page: Int?
        let percent: Double?
        let note: String?
    }

    struct PhotoEntry: Encodable {
        let book: String?
        let pageNumber: Int?
        /// A film's or show's photo's place: "S2E3 12:04", "1:02:15".
        var moment: String? = nil
        let comment: String?
        let takenAt: Date?
        let createdAt: Date
        /// The original's path inside the zip.
        let file: String
        /// Where it is in the media folder; not written out.
        let storedFile: String
        /// How it is shown: quarter turns clockwise, then percent cut from each edge (the file is the original).
        var touchUp: TouchUp? = nil

        enum CodingKeys: String, CodingKey { case book, pageNumber, moment, comment, takenAt, createdAt, file, touchUp }
    }

    struct TouchUp: Encodable {
        let turns: Int
        let cropLeft: Double
        let cropTop: Double
        let cropRight: Double
        let cropBottom: Double
    }

    let username: String
    let displayName: String
    let email: String
    let exportedBy = "Shelfed"
    let books: [BookEntry]
    let lists: [ListEntry]
    let photos: [PhotoEntry]
}

extension MyDataExport {
    /// A list with its description and its books' titles in the list's order.
    struct ListEntry: Encodable {
        let name: String
        let description: String?
        let books: [String]
    }
}
