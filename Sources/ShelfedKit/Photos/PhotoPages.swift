import Foundation

/// A photo as lists show it.
struct PhotoThumb: Sendable {
    let path: String
    let thumbURL: String
    let alt: String
    let pageLabel: String?
    let bookTitle: String?
    let bookPath: String?

    init(_ photo: Photo, bookTitle: String? = nil) {
        let id = photo.id!
        path = Paths.photo(id)
        thumbURL = Paths.photoFile(id, .thumb)
        pageLabel = photo.pageNumber.map { "Page \($0)" }
        alt = [bookTitle.map { "Photo from \($0)" } ?? "Photo", pageLabel.map { ", \($0.lowercased())" }]
            .compactMap { $0 }.joined()
        self.bookTitle = bookTitle
        bookPath = photo.bookId.map(Paths.book)
    }
}

/// `photos/new`: the upload form, with what was typed and a message per field.
struct NewPhotoPage: Sendable {
    let chrome: PageChrome
    let bookTitle: String
    let bookPath: String
    let action: String
    let pageNumber: String
    let comment: String
    let pageCount: Int?
    let pageNumberError: String?
    let commentError: String?
    let photoError: String?
    let maxUploadMB: Int
    let acceptsHEIC: Bool
    /// The photos kept from the last try (`MediaStore.keepPending`): their token and how the form names them.
    var pending: String?
    var pendingFiles: [String] = []
    /// "Turn or crop before saving", as typed.
    var turns: [Choice] = []
    var presets: [Choice] = []
    var cropLeft = ""
    var cropTop = ""
    var cropRight = ""
    var cropBottom = ""
    var cropError: String?

    struct Choice: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    /// Fills the touch-up fields from what was typed (`turn`, `crop_preset`, `crop_*`).
    mutating func keepTouchUp(_ typed: [String: String], error: String?) {
        let turn = typed["turn"] ?? "none"
        turns = [("none", "No turn"), ("left", "Turn left"), ("right", "Turn right"), ("upside-down", "Upside down")]
            .map { Choice(value: $0.0, label: $0.1, selected: $0.0 == turn) }
        presets = PhotoEdit.Preset.allCases.map {
            Choice(value: $0.rawValue, label: $0.label, selected: $0.rawValue == typed["crop_preset"])
        }
        cropLeft = typed["crop_left"] ?? ""
        cropTop = typed["crop_top"] ?? ""
        cropRight = typed["crop_right"] ?? ""
        cropBottom = typed["crop_bottom"] ?? ""
        cropError = error
    }
}

/// `photos/gallery`: one book's photos, sortable by page or date.
struct GalleryPage: Sendable {
    let chrome: PageChrome
    let bookTitle: String
    let bookPath: String
    let newPhotoPath: String
    let photos: [PhotoThumb]
    let byPage: Bool
    let byPagePath: String
    let byDatePath: String
}

/// `photos/show`: the large image, its page and comment, the edit form and the delete link.
struct PhotoPage: Sendable {
    var chrome: PageChrome
    let id: Int64
    let displayURL: String
    let originalURL: String
    let width: Int
    let height: Int
    let alt: String
    let bookTitle: String
    let bookPath: String
    let galleryPath: String
    let pageNumber: String
    let comment: String
    let uploaded: String
    let editPath: String
    let deletePath: String
    let pageNumberError: String?
    let commentError: String?
    /// The words on the page, once read; the editable field appears then too.
    let text: String?
    let textEditable: Bool
    let textStatusMessage: String?
    let textError: String?
    let quotesPath: String
    /// Turn and crop; nil for a profile picture.
    var touchUp: TouchUpSection?
    /// "Share with the household"; nil for a profile picture.
    var sharing: ShareSwitch? = nil
}

/// `photos/delete`: asks before a photo and its files go.
struct DeletePhotoPage: Sendable {
    let chrome: PageChrome
    let thumbURL: String
    let alt: String
    let deletePath: String
    let photoPath: String
}
