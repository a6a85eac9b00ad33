import Hummingbird

/// Every page route Shelfed serves. Controllers register each one from its `pattern`, and `Paths` builds every
/// link from the same pattern, so a route and its links cannot drift apart (a test walks every case both ways).
/// Facts about a route, such as whether it takes a streamed upload, live here, not in path checks elsewhere.
enum Route: String, CaseIterable, Sendable {
    case home, health, login, forgotPassword, register, logout, language
    case shelves, shelf, favourites, series, genres
    case lists, list, listEdit, listDelete, listBooks, listBookRemove, listBookMove, bookLists
    case newBook, books, book, bookShelf, bookFavourite, bookDates, bookReview, bookRating, bookRemove
    case bookEpisodes
    case bookProgress, journalEntry, journalEntryDelete, bookReadAgain, bookStop, bookCopy
    case bookEdit, bookCover, bookCoverChoices
    case bookPhotos, newBookPhoto, photo, photoDelete, photoFile, photoTouchUp
    case profile, profileYear, profileEdit, profileAvatar, profileGoal, profilePassword, profileDelete, devices,
        deviceRevoke
    case myData, serverBackup, serverBackupNow
    case household, householdInvitations, householdInvitationRevoke, householdMemberPassword, householdMemberRemove,
        householdSignUp, householdChecks, householdMemberAdmin, join, passwordReset, profileSharing, houseFeed, house,
        bookLend,
        bookReturned, borrowAsk, borrowAnswer, bookRecommend, recommendationDismiss, photoShare, listShare, housePhoto,
        housePhotoFile, houseList, houseChallenge, houseMember, houseBook, houseBookAdd, forYou, forYouSeen, filmNight,
        bookTogether, togetherAnswer, householdJellyfin
    case search, searchVolume, searchAdd, find, titleSearch, titleAdd, about, householdTMDB, titleMatches,
        titleMatchChoice
    case scan, scanBooks, quotes, librarySearch, shelfScan, shelfScanResult, shelfScanAdd
    case exportGoodreads, exportLetterboxd, imports, importJob, importMapping, importConfirm, importCancel,
        importEvents,
        importFailedRows, importRetry, importDateOrder, importWithoutDamagedISBNs, importJellyfin

    /// The path as the router matches it; `:name` segments are parameters.
    var pattern: String {
        switch self {
        case .home: "/"
        case .health: "/health"
        case .login: "/login"
        case .forgotPassword: "/login/forgot"
        case .register: "/register"
        case .logout: "/logout"
        case .language: "/language"
        case .shelves: "/shelves"
        case .shelf: "/shelves/:shelf"
        case .favourites: "/favourites"
        case .series: "/series"
        case .genres: "/genres"
        case .lists: "/lists"
        case .list: "/lists/:listID"
        case .listEdit: "/lists/:listID/edit"
        case .listDelete: "/lists/:listID/delete"
        case .listBooks: "/lists/:listID/books"
        case .listBookRemove: "/lists/:listID/books/:id/remove"
        case .listBookMove: "/lists/:listID/books/:id/move"
        case .bookLists: "/books/:id/lists"
        case .newBook: "/books/new"
        case .books: "/books"
        case .book: "/books/:id"
        case .bookShelf: "/books/:id/shelf"
        case .bookFavourite: "/books/:id/favourite"
        case .bookDates: "/books/:id/dates"
        case .bookReview: "/books/:id/review"
        case .bookRating: "/books/:id/rating"
        case .bookRemove: "/books/:id/remove"
        case .bookProgress: "/books/:id/progress"
        case .bookReadAgain: "/books/:id/read-again"
        case .bookEpisodes: "/books/:id/episodes"
        case .bookStop: "/books/:id/did-not-finish"
        case .bookCopy: "/books/:id/copy"
        case .journalEntry: "/journal/:entryID"
        case .journalEntryDelete: "/journal/:entryID/delete"
        case .bookEdit: "/books/:id/edit"
        case .bookCover: "/books/:id/cover"
        case .bookCoverChoices: "/books/:id/cover/choices"
        case .bookPhotos: "/books/:id/photos"
        case .newBookPhoto: "/books/:id/photos/new"
        case .photo: "/photos/:photoID"
        case .photoDelete: "/photos/:photoID/delete"
        case .photoFile: "/photos/:photoID/:variant"
        case .photoTouchUp: "/photos/:photoID/touch-up"
        case .profile: "/profile"
        case .profileYear: "/profile/year/:year"
        case .profileEdit: "/profile/edit"
        case .profileAvatar: "/profile/avatar"
        case .profileGoal: "/profile/goal"
        case .profilePassword: "/profile/password"
        case .profileDelete: "/profile/delete"
        case .devices: "/profile/devices"
        case .myData: "/profile/my-data"
        case .serverBackup: "/profile/backup"
        case .serverBackupNow: "/profile/backup/now"
        case .household: "/household"
        case .householdInvitations: "/household/invitations"
        case .householdInvitationRevoke: "/household/invitations/:invitationID/revoke"
        case .householdMemberPassword: "/household/members/:memberID/password-link"
        case .householdMemberRemove: "/household/members/:memberID/remove"
        case .householdSignUp: "/household/sign-up"
        case .householdChecks: "/household/checks"
        case .householdMemberAdmin: "/household/members/:memberID/admin"
        case .join: "/join/:token"
        case .passwordReset: "/password/:token"
        case .profileSharing: "/profile/sharing"
        case .houseFeed: "/house/feed"
        case .house: "/house"
        case .bookLend: "/books/:id/lend"
        case .bookReturned: "/books/:id/returned"
        case .borrowAsk: "/house/copies/:entryID/ask"
        case .borrowAnswer: "/house/requests/:requestID"
        case .bookRecommend: "/books/:id/recommend"
        case .recommendationDismiss: "/recommendations/:recommendationID/dismiss"
        case .photoShare: "/photos/:photoID/share"
        case .listShare: "/lists/:listID/share"
        case .housePhoto: "/house/photos/:photoID"
        case .housePhotoFile: "/house/photos/:photoID/:variant"
        case .houseList: "/house/lists/:listID"
        case .houseMember: "/house/members/:memberID"
        case .houseBook: "/house/books/:id"
        case .forYou: "/for-you"
        case .filmNight: "/film-night"
        case .bookTogether: "/books/:id/together"
        case .togetherAnswer: "/together/:offerID"
        case .householdJellyfin: "/household/jellyfin"
        case .forYouSeen: "/for-you/seen"
        case .houseBookAdd: "/house/books/:id/add"
        case .houseChallenge: "/household/challenge"
        case .deviceRevoke: "/profile/devices/:deviceID/revoke"
        case .search: "/search"
        case .searchVolume: "/search/volumes/:volumeId"
        case .searchAdd: "/search/add"
        case .scan: "/scan"
        case .scanBooks: "/scan/books"
        case .quotes: "/quotes"
        case .shelfScan: "/scan/shelf"
        case .shelfScanResult: "/scan/shelf/:scanID"
        case .shelfScanAdd: "/scan/shelf/:scanID/add"
        case .librarySearch: "/library/search"
        case .find: "/find"
        case .titleSearch: "/titles/search"
        case .titleAdd: "/titles/add"
        case .titleMatches: "/titles/match"
        case .titleMatchChoice: "/titles/match/:id"
        case .about: "/about"
        case .householdTMDB: "/household/tmdb"
        case .exportGoodreads: "/export/goodreads"
        case .exportLetterboxd: "/export/letterboxd"
        case .imports: "/import"
        case .importJob: "/import/:jobID"
        case .importMapping: "/import/:jobID/columns"
        case .importConfirm: "/import/:jobID/confirm"
        case .importCancel: "/import/:jobID/cancel"
        case .importEvents: "/import/:jobID/events"
        case .importFailedRows: "/import/:jobID/failed-rows"
        case .importRetry: "/import/:jobID/rows/:row"
        case .importDateOrder: "/import/:jobID/date-order"
        case .importWithoutDamagedISBNs: "/import/:jobID/without-damaged-isbns"
        case .importJellyfin: "/import/from-jellyfin"
        }
    }

    /// Whether its POST streams a multipart body, checking the CSRF token as the body's first part itself.
    var takesStreamedUpload: Bool {
        self == .bookPhotos || self == .profileAvatar || self == .imports || self == .scan || self == .shelfScan
            || self == .bookCover
    }

    var routerPath: RouterPath { RouterPath(pattern) }

    /// A link to this route with its parameters filled in order; each value is escaped as one path segment.
    func link(_ values: any CustomStringConvertible...) -> String {
        link(filling: values)
    }

    func link(filling values: [any CustomStringConvertible]) -> String {
        var remaining = values.makeIterator()
        var link = ""
        for segment in Self.segments[self] ?? [] {
            link += "/"
            link +=
                segment.hasPrefix(":")
                ? Paths.pathSegment(remaining.next().map { String(describing: $0) } ?? "") : segment
        }
        return link.isEmpty ? "/" : link
    }

    /// A link to this route with its one parameter an id: built from the text on either side of the parameter, as
    /// digits never need escaping. A shelf page builds five of these for each of its sixty cards, and the general
    /// path (an array of existentials, each segment looked at) was a tenth of the page's CPU.
    func link(_ id: Int64) -> String {
        guard let (before, after) = Self.aroundOneParameter[self] else { return link(filling: [id]) }
        return before + String(id) + after
    }

    /// The text before and after the parameter, for the patterns with exactly one.
    private static let aroundOneParameter: [Route: (String, String)] = segments.compactMapValues { parts in
        let parameters = parts.indices.filter { parts[$0].hasPrefix(":") }
        guard parameters.count == 1, let index = parameters.first else { return nil }
        return (parts[..<index].map { "/" + $0 }.joined() + "/", parts[(index + 1)...].map { "/" + $0 }.joined())
    }

    /// Each pattern's segments, split once: links are built for every card of every page.
    private static let segments: [Route: [String]] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, $0.pattern.split(separator: "/").map(String.init)) })

    /// The route whose pattern the router matched, as Hummingbird reports it in `endpointPath`.
    init?(endpointPath: String?) {
        guard let endpointPath, let route = Self.byPattern[endpointPath] else { return nil }
        self = route
    }

    private static let byPattern: [String: Route] = Dictionary(
        uniqueKeysWithValues: allCases.map { (RouterPath($0.pattern).description, $0) })
}
