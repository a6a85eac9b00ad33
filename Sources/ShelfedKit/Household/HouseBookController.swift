import Foundation
import Hummingbird

/// A book someone in the house has, opened in Shelfed (issue 36, part 4): the feed, a housemate's page, a shared
/// list, a recommendation and the house library link here for a book the viewer has not got, instead of to a book
/// search. It says what the book is and who has it, with "Ask to borrow" where a copy is free, and puts it on Want to
/// read in one tap. The viewer's own copy opens their own page.
struct HouseBookController: Sendable {
    let sharing: HouseholdSharing
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.houseBook.routerPath, use: show)
    }

    /// GET /house/books/:id; a book nobody who shares has, and nobody recommended to the viewer, is a 404.
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let id = BoundedNumber.id(context.parameters.get("id")),
            let found = try await sharing.houseBook(id, for: context.userID)
        else { throw AppError.notFound(localized("There is no such book in the house.")) }
        if let mine = found.viewerBookID { return .seeOther(Paths.book(mine)) }
        let copies = try await sharing.inTheHouse(bookID: id, isbn13: found.book.isbn13, for: context.userID)
        let page = HouseBookPage(found, copies: copies, context: context, timeZone: clock.timeZone)
        return try renderer.render(page, template: "household/book").response
    }
}

/// `household/book`.
struct HouseBookPage: Sendable {
    struct Recommendation: Sendable {
        let from: String
        let note: String?
    }

    let chrome: PageChrome
    let title: String
    let subtitle: String?
    let authors: String?
    let coverURL: String
    let hasCover: Bool
    let community: String?
    let description: BookPage.DescriptionLead?
    let recommendations: [Recommendation]
    let house: BookPage.HouseSection?
    let addPath: String

    init(
        _ found: HouseholdSharing.HouseBook, copies: [HouseholdSharing.HouseCopy], context: SignedInContext,
        timeZone: TimeZone
    ) {
        let book = found.book
        chrome = PageChrome(title: book.title, context: context, tab: .feed)
        title = book.title
        subtitle = book.subtitle
        authors = book.authors.isEmpty ? nil : book.authors.joined(separator: ", ")
        coverURL = BookCover.url(for: book.coverPath)
        hasCover = book.coverPath != nil
        community = book.community?.text
        description = BookPage.DescriptionLead(
            (book.description ?? "").components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty })
        recommendations = found.recommendations.map { Recommendation(from: $0.from, note: $0.note) }
        house = BookPage.HouseSection(
            copies, bookID: book.id!, timeZone: timeZone, returnTo: Paths.houseBook(book.id!))
        addPath = Route.houseBookAdd.link(book.id!)
    }
}
