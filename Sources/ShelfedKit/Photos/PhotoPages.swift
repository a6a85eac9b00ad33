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
        pageLabel = photo.placeLabel
        alt = Self.alt(photo, bookTitle: bookTitle)
        self.bookTitle = bookTitle
        bookPath = photo.bookId.map(Paths.book)
    }

    /// "Photo from Dune, page 42": a page reads "page 42" inside a sentence; an episode's "S2E3" keeps its capitals.
    static func alt(_ photo: Photo, bookTitle: String?) -> String {
        let page = photo.pageNumber.map { String($0) }
        let moment = photo.pageNumber == nil ? photo.moment?.label : nil
        switch (bookTitle, page, moment) {
        case (let title?, let page?, _):
            return localized("Photo from {{title}}, page {{page}}", ["title": title, "page": page])
        case (let title?, nil, let moment?):
            return localized("Photo from {{title}}, {{moment}}", ["title": title, "moment": moment])
        case (let title?, nil, nil): return localized("Photo from {{title}}", ["title": title])
        case (nil, let page?, _): return localized("Photo, page {{page}}", ["page": page])
        case (nil, nil, let moment?): return localized("Photo, {{moment}}", ["moment": moment])
        case (nil, nil, nil): return localized("Photo")
        }
    }
}

/// The field that says where a photo belongs: a book's page number, a film's time, a show's episode (and time).
struct PlaceField: Sendable {
    let name: String
    let label: String
    let value: String
    let hint: String
    let inputMode: String
    let maxLength: Int
    let error: String?

    init(_ target: PhotoTarget, form: PhotoForm, errors: FieldErrors) {
        switch target.kind {
        case .book:
            name = "page_number"
            label = localized("Page number")
            value = form.pageNumber
            hint =
                target.pageCount.map { localized("1 to {{last}}.", ["last": String($0)]) }
                ?? localized("A whole number.")
            inputMode = "numeric"
            maxLength = 6
        case .movie:
            name = "moment"
            label = localized("Time in the film")
            value = form.moment
            hint =
                target.runtimeMinutes.map {
                    localized(
                        "Hours, minutes and seconds, like 1:02:15. It runs {{length}}.",
                        ["length": BookPage.runningTime($0)])
                } ?? localized("Hours, minutes and seconds, like 1:02:15.")
            inputMode = "text"
            maxLength = PhotoMoment.maxLength
        case .show:
            name = "moment"
            label = localized("Episode")
            value = form.moment
            hint = localized("Like S2E3, or S2E3 12:04 for a moment in it.")
            inputMode = "text"
            maxLength = PhotoMoment.maxLength
        }
        error = errors[name]
    }

    /// The field filled from a stored photo.
    init(_ target: PhotoTarget, photo: Photo, errors: FieldErrors = .init()) {
        self.init(
            target, form: PhotoForm(pageNumber: photo.pageNumber.map(String.init), moment: photo.moment?.text),
            errors: errors)
    }
}

/// The words a photo's pages use for its title's kind: a book's pages, a film's scenes.
struct PhotoWording: Sendable {
    let noun: String
    let intro: String
    let byPlace: String
    let emptyState: String
    let wordsHeading: String
    let wordsLabel: String

    init(_ kind: TitleKind) {
        noun = kind.noun
        switch kind {
        case .book:
            intro = localized("A page you loved, a quote, a moment. Photos are private: only you can see them.")
            byPlace = localized("By page")
            emptyState = localized(
                "No photos of this book yet. Snap a page you loved, with its page number and a note.")
            wordsHeading = localized("Words on this page")
            wordsLabel = localized("Words on the page")
        case .movie:
            intro = localized("A scene, a ticket, a line you loved. Photos are private: only you can see them.")
            byPlace = localized("By time")
            emptyState = localized(
                "No photos of this film yet. Keep a scene, a ticket or a line, with the time it comes at and a note.")
            wordsHeading = localized("Words in this photo")
            wordsLabel = localized("Words in the photo")
        case .show:
            intro = localized("A scene, a ticket, a line you loved. Photos are private: only you can see them.")
            byPlace = localized("By episode")
            emptyState = localized(
                "No photos of this TV show yet. Keep a scene, a ticket or a line, with its episode and a note.")
            wordsHeading = localized("Words in this photo")
            wordsLabel = localized("Words in the photo")
        }
    }
}

/// `photos/new`: the upload form, with what was typed and a message per field.
struct NewPhotoPage: Sendable {
    let chrome: PageChrome
    let bookTitle: String
    let bookPath: String
    let action: String
    let place: PlaceField
    let wording: PhotoWording
    let comment: String
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
    mutating func keepTouchUp(_ typed: [String: String], error: String?, kind: TitleKind) {
        let turn = typed["turn"] ?? "none"
        let names = [
            ("none", localized("No turn")), ("left", localized("Turn left")), ("right", localized("Turn right")),
            ("upside-down", localized("Upside down")),
        ]
        turns = names.map { Choice(value: $0.0, label: $0.1, selected: $0.0 == turn) }
        presets = PhotoEdit.Preset.allCases.map {
            Choice(value: $0.rawValue, label: $0.label(for: kind), selected: $0.rawValue == typed["crop_preset"])
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
    let wording: PhotoWording
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
    /// "Page 42", "S2E3 · 12:04": the caption; nil when the photo has no place.
    let placeLabel: String?
    let place: PlaceField
    let wording: PhotoWording
    let comment: String
    let uploaded: String
    let editPath: String
    let deletePath: String
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
