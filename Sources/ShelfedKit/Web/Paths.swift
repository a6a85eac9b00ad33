import Foundation

/// Every link Shelfed builds, each made from its `Route`'s pattern, so links and routes never drift apart.
enum Paths {
    static let home = Route.home.link()
    static let shelves = Route.shelves.link()
    static let favourites = Route.favourites.link()
    static let profile = Route.profile.link()
    static func profileYear(_ year: Int) -> String { Route.profileYear.link(year) }
    static let profileEdit = Route.profileEdit.link()
    static let devices = Route.devices.link()
    static func deviceRevoke(_ id: Int64) -> String { Route.deviceRevoke.link(id) }
    static let newBook = Route.newBook.link()
    static let imports = Route.imports.link()
    static func importJob(_ id: String) -> String { Route.importJob.link(id) }
    static let books = Route.books.link()

    static func login(next: String? = nil) -> String {
        guard let next = safeRelativePath(next), next != "/" else { return Route.login.link() }
        return Route.login.link() + "?next=" + queryEscape(next)
    }

    static let search = Route.search.link()
    static let searchAdd = Route.searchAdd.link()
    static let titleSearch = Route.titleSearch.link()
    static let titleAdd = Route.titleAdd.link()
    static let titleMatches = Route.titleMatches.link()
    static let about = Route.about.link()
    static let householdTMDB = Route.householdTMDB.link()
    static let householdJellyfin = Route.householdJellyfin.link()
    static let scan = Route.scan.link()
    static let quotes = Route.quotes.link()
    static let shelfScan = Route.shelfScan.link()
    static func shelfScanResult(_ id: String) -> String { Route.shelfScanResult.link(id) }
    static func shelfScanAdd(_ id: String) -> String { Route.shelfScanAdd.link(id) }
    static let librarySearch = Route.librarySearch.link()

    /// The scan results for `isbns`; `printed` notes they were read from printed text, not a barcode.
    static func scanBooks(_ isbns: [ISBN], printed: Bool = false) -> String {
        var path = Route.scanBooks.link() + "?" + isbns.map { "isbn=" + $0.isbn13 }.joined(separator: "&")
        if printed { path += "&from=text" }
        return path
    }

    static func search(_ text: String, field: SearchRequest.Field = .all, start: Int = 0) -> String {
        var path = search + "?q=" + queryEscape(text)
        if field != .all { path += "&field=" + field.rawValue }
        if start > 0 { path += "&start=\(start)" }
        return path
    }

    static func searchVolume(_ volumeID: String) -> String {
        Route.searchVolume.link(volumeID)
    }

    /// The manual-add form for a book, a film or a TV show.
    static func newTitle(_ kind: TitleKind) -> String {
        kind == .book ? newBook : newBook + "?kind=" + kind.rawValue
    }

    /// The manual-add form filled in from a search that could not be answered.
    static func newBook(prefilledFrom request: SearchRequest) -> String {
        guard !request.text.isEmpty else { return newBook }
        if let isbn = request.isbn { return newBook + "?isbn=" + queryEscape(isbn.isbn13) }
        let field = request.field == .author ? "authors" : "title"
        return newBook + "?\(field)=" + queryEscape(request.text)
    }

    enum PhotoVariant: String, Sendable {
        case thumb, display, original
    }

    static func bookPhotos(_ bookID: Int64) -> String { Route.bookPhotos.link(bookID) }
    static func newBookPhoto(_ bookID: Int64) -> String { Route.newBookPhoto.link(bookID) }
    static func photo(_ id: Int64) -> String { Route.photo.link(id) }
    static func photoDelete(_ id: Int64) -> String { Route.photoDelete.link(id) }
    static func photoTouchUp(_ id: Int64) -> String { Route.photoTouchUp.link(id) }
    static func photoFile(_ id: Int64, _ variant: PhotoVariant) -> String { Route.photoFile.link(id, variant.rawValue) }
    static let avatar = Route.profileAvatar.link()

    static func shelf(_ shelf: Shelf) -> String { Route.shelf.link(shelf.slug) }
    static func book(_ id: Int64) -> String { Route.book.link(id) }
    static let seriesIndex = Route.series.link()
    static let genres = Route.genres.link()
    static let lists = Route.lists.link()
    static let household = Route.household.link()
    static let houseFeed = Route.houseFeed.link()
    static let house = Route.house.link()
    static func bookLend(_ id: Int64) -> String { Route.bookLend.link(id) }
    static func bookReturned(_ id: Int64) -> String { Route.bookReturned.link(id) }
    static func borrowAsk(_ entryID: Int64) -> String { Route.borrowAsk.link(entryID) }
    static func borrowAnswer(_ id: Int64) -> String { Route.borrowAnswer.link(id) }
    static func bookRecommend(_ id: Int64) -> String { Route.bookRecommend.link(id) }
    static func recommendationDismiss(_ id: Int64) -> String { Route.recommendationDismiss.link(id) }
    static func bookTogether(_ id: Int64) -> String { Route.bookTogether.link(id) }
    static func togetherAnswer(_ id: Int64) -> String { Route.togetherAnswer.link(id) }
    static let profileSharing = Route.profileSharing.link()
    static let householdInvitations = Route.householdInvitations.link()
    static func householdInvitationRevoke(_ id: Int64) -> String { Route.householdInvitationRevoke.link(id) }
    static func householdMemberPassword(_ id: Int64) -> String { Route.householdMemberPassword.link(id) }
    static func householdMemberRemove(_ id: Int64) -> String { Route.householdMemberRemove.link(id) }
    static let householdSignUp = Route.householdSignUp.link()
    static let householdChecks = Route.householdChecks.link()
    static let serverBackupNow = Route.serverBackupNow.link()
    static func householdMemberAdmin(_ id: Int64) -> String { Route.householdMemberAdmin.link(id) }
    static func join(_ token: String) -> String { Route.join.link(token) }
    static func passwordReset(_ token: String) -> String { Route.passwordReset.link(token) }
    static func list(_ id: Int64) -> String { Route.list.link(id) }
    static func listEdit(_ id: Int64) -> String { Route.listEdit.link(id) }
    static func listDelete(_ id: Int64) -> String { Route.listDelete.link(id) }
    static func listBooks(_ id: Int64) -> String { Route.listBooks.link(id) }
    static func listBookRemove(_ id: Int64, _ bookID: Int64) -> String { Route.listBookRemove.link(id, bookID) }
    static func listBookMove(_ id: Int64, _ bookID: Int64) -> String { Route.listBookMove.link(id, bookID) }
    static func bookLists(_ bookID: Int64) -> String { Route.bookLists.link(bookID) }
    static func photoShare(_ id: Int64) -> String { Route.photoShare.link(id) }
    static func listShare(_ id: Int64) -> String { Route.listShare.link(id) }
    static func housePhoto(_ id: Int64) -> String { Route.housePhoto.link(id) }
    static func housePhotoFile(_ id: Int64, _ variant: PhotoVariant) -> String {
        Route.housePhotoFile.link(id, variant.rawValue)
    }
    static func houseList(_ id: Int64) -> String { Route.houseList.link(id) }
    static func houseMember(_ id: Int64) -> String { Route.houseMember.link(id) }
    static func houseBook(_ id: Int64) -> String { Route.houseBook.link(id) }
    static let forYou = Route.forYou.link()
    static let houseChallenge = Route.houseChallenge.link()
    static func series(_ name: String) -> String { Route.series.link() + "?name=" + queryEscape(name) }
    static func bookShelf(_ id: Int64) -> String { Route.bookShelf.link(id) }
    static func bookFavourite(_ id: Int64) -> String { Route.bookFavourite.link(id) }
    static func bookDates(_ id: Int64) -> String { Route.bookDates.link(id) }
    static func bookReview(_ id: Int64) -> String { Route.bookReview.link(id) }
    static func bookRating(_ id: Int64) -> String { Route.bookRating.link(id) }
    static func bookRemove(_ id: Int64) -> String { Route.bookRemove.link(id) }
    static func bookProgress(_ id: Int64) -> String { Route.bookProgress.link(id) }
    static func bookReadAgain(_ id: Int64) -> String { Route.bookReadAgain.link(id) }
    static func bookEpisodes(_ id: Int64) -> String { Route.bookEpisodes.link(id) }
    static func bookStop(_ id: Int64) -> String { Route.bookStop.link(id) }
    static func bookCopy(_ id: Int64) -> String { Route.bookCopy.link(id) }
    static func journalEntry(_ id: Int64) -> String { Route.journalEntry.link(id) }
    static func journalEntryDelete(_ id: Int64) -> String { Route.journalEntryDelete.link(id) }
    static func bookEdit(_ id: Int64) -> String { Route.bookEdit.link(id) }
    static func bookCover(_ id: Int64) -> String { Route.bookCover.link(id) }
    static func bookCoverChoices(_ id: Int64) -> String { Route.bookCoverChoices.link(id) }

    /// Percent-escapes one path segment (such as a Google volume id) so it cannot add segments or a query:
    /// ASCII letters, digits, `-` and `_` stay, every other UTF-8 byte becomes `%XX`. Byte-wise, because links are
    /// built for every card on every page and a `CharacterSet` costs a bitmap each time it is made.
    static func pathSegment(_ value: String) -> String {
        let isPlain = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x5F
        }
        if value.utf8.allSatisfy(isPlain) { return value }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if isPlain(byte) {
                bytes.append(byte)
            } else {
                bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let queryAllowed: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return allowed
    }()

    /// Percent-escapes a query value, including `&`, `=`, `+` and `?` that would otherwise split it.
    static func queryEscape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? value
    }
}
