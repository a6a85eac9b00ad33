import Foundation
import GRDB

/// An uploaded picture: of a page or moment in a book, or (without a book) a profile picture.
public struct Photo: Codable, Sendable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var userId: Int64
    public var bookId: Int64?
    /// Paths relative to the media folder.
    public var originalPath: String
    public var displayPath: String
    public var thumbPath: String
    /// Of the display image, upright.
    public var width: Int
    public var height: Int
    /// Of the original upload.
    public var bytes: Int
    public var sha256: String?
    public var contentType: String
    public var pageNumber: Int?
    public var comment: String?
    public var takenAt: Date?
    public var createdAt: Date
    /// The words tesseract read on the page (or the owner typed), plain text.
    public var ocrText: String? = nil
    /// `pending`, `reading`, `done`, `failed` or `edited`; nil for profile pictures, which are not read.
    public var ocrStatus: String? = nil
    /// Touch-ups made from the untouched original: quarter turns clockwise, then the fractions cut from each edge.
    public var editTurns: Int = 0
    public var cropLeft: Double = 0
    public var cropTop: Double = 0
    public var cropRight: Double = 0
    public var cropBottom: Double = 0
    /// Where in a film or show it belongs (`PhotoMoment`); a book photo has `pageNumber` instead.
    public var momentSeason: Int? = nil
    public var momentEpisode: Int? = nil
    public var momentSeconds: Int? = nil

    public static let databaseTableName = "photo"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// How the display image is made from the original.
    var edit: PhotoEdit {
        PhotoEdit(
            quarterTurns: editTurns, crop: .init(left: cropLeft, top: cropTop, right: cropRight, bottom: cropBottom))
    }

    /// Its episode and time in a film or show, when it has one.
    var moment: PhotoMoment? {
        PhotoMoment(season: momentSeason, episode: momentEpisode, seconds: momentSeconds)
    }

    /// "Page 42", "S2E3 · 12:04" or "1:02:15": where the photo belongs, under it in lists.
    var placeLabel: String? {
        pageNumber.map { localized("Page {{number}}", ["number": String($0)]) } ?? moment?.label
    }

    /// The three files of this photo, relative to the media folder.
    var files: [String] { [originalPath, displayPath, thumbPath] }
}
