import Foundation

/// The "Share with the household" switch on the owner's own photo and list pages (`household/share-switch`).
struct ShareSwitch: Sendable {
    let isShared: Bool
    /// Whether the owner shares their reading; a shared item stays unseen until they do.
    let ownerShares: Bool
    let formPath: String
    /// How the others see it.
    let housePath: String
    /// "photo" or "list", for the sentences.
    let noun: String
    /// The sentences are said whole for each (issue 39): "Dieses Foto", "Diese Liste".
    let isPhoto: Bool
    let settingsPath = Paths.profileEdit + "#sharing-heading"

    init(_ state: HouseholdSharing.ShareState, formPath: String, housePath: String, noun: String) {
        isShared = state.isShared
        ownerShares = state.ownerShares
        self.formPath = formPath
        self.housePath = housePath
        self.noun = noun
        isPhoto = noun == "photo"
    }
}

/// `household/photo`: a photo someone in the house shared.
struct HousePhotoPage: Sendable {
    let chrome: PageChrome
    let member: String
    let bookTitle: String
    /// The viewer's own page for the book, else a search for it.
    let bookPath: String
    let displayURL: String
    let width: Int
    let height: Int
    let alt: String
    /// "Page 42", "S2E3 · 12:04".
    let placeLabel: String?
    let comment: String?
    let text: String?
    let isOwn: Bool
    let ownPath: String

    init(_ shared: HouseholdSharing.SharedPhoto, context: SignedInContext) {
        let photo = shared.photo
        let id = photo.id!
        chrome = PageChrome(
            title: localized("{{name}}’s photo from {{title}}", ["name": shared.member, "title": shared.bookTitle]),
            context: context, tab: .feed)
        member = shared.member
        bookTitle = shared.bookTitle
        bookPath = shared.viewerBookID.map(Paths.book) ?? photo.bookId.map(Paths.houseBook) ?? Paths.houseFeed
        displayURL = Paths.housePhotoFile(id, .display)
        width = photo.width
        height = photo.height
        alt = PhotoThumb(photo, bookTitle: shared.bookTitle).alt
        placeLabel = photo.placeLabel
        comment = photo.comment
        text = photo.ocrText
        isOwn = photo.userId == context.userID
        ownPath = Paths.photo(id)
    }
}

/// `household/list`: a list someone in the house shared, in its order.
struct HouseListPage: Sendable {
    struct Item: Sendable {
        let position: Int
        let title: String
        let authors: String?
        let path: String
        let coverURL: String
        let hasCover: Bool
        let shelfTitle: String
    }

    let chrome: PageChrome
    let member: String
    let name: String
    let description: String?
    let summary: String
    let items: [Item]
    let pagination: HTMLFragment
    let isOwn: Bool
    let ownPath: String

    init(
        _ list: HouseholdSharing.SharedList, items: [ReadingListItem], total: Int, pageNumber: Int,
        viewerBooks: [Int64: Int64], context: SignedInContext
    ) {
        chrome = PageChrome(
            title: localized("{{name}}’s list “{{list}}”", ["name": list.member, "list": list.name]), context: context,
            tab: .feed)
        member = list.member
        name = list.name
        description = list.description
        summary = localized(one: "{{count}} book", other: "{{count}} books", count: total)
        self.items = items.map { entry in
            let item = entry.item
            return Item(
                position: entry.position, title: item.title, authors: item.authors.isEmpty ? nil : item.authors,
                path: viewerBooks[item.bookID].map(Paths.book) ?? Paths.houseBook(item.bookID),
                coverURL: BookCover.url(for: item.coverPath), hasCover: item.coverPath != nil,
                shelfTitle: item.shelf.title)
        }
        let path = Paths.houseList(list.id)
        pagination =
            Pagination(path: path, query: [:], current: pageNumber, total: total, pageSize: LibraryStore.pageSize).html
        isOwn = list.ownerID == context.userID
        ownPath = Paths.list(list.id)
    }
}
