import Foundation
import Hummingbird

/// The person's own copy of a book, on its page: whether they own it and in what format (paperback, e-book, …) —
/// what the shelf filters and imports already know.
struct BookCopyController: Sendable {
    let pages: BookPageBuilder
    var library: LibraryStore { pages.library }

    static let maxFormatLength = 100
    /// Offered as suggestions; anything else typed is kept as typed.
    static let formats = ["Paperback", "Hardcover", "E-book", "Audiobook"]

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.bookCopy.routerPath, use: update)
    }

    /// POST /books/:id/copy (`owned`: 1 when checked, `format`)
    @Sendable func update(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        var request = request
        let form = try await request.formFields()
        let owned = form["owned"] == "1"
        let format = form.trimmed("format")
        let location = form.trimmed("location")
        var formatError: String?
        var locationError: String?
        if let format, format.count > Self.maxFormatLength || NewBookForm.hasControlCharacters(format) {
            formatError = localized(
                "Keep the format to a short name, such as Paperback or E-book (100 characters at most).")
        }
        if let location, location.count > LoanStore.maxLocationLength || NewBookForm.hasControlCharacters(location) {
            locationError = localized(
                "Keep the place to a few words, such as “living room, top shelf” (100 characters at most).")
        }
        if formatError != nil || locationError != nil {
            var page = try await pages.page(entry, context: context)
            page.copy = BookPage.CopySection(
                entry, typed: (owned, format, location), error: formatError, locationError: locationError)
            return try pages.refused(page)
        }
        let bookID = entry.bookID
        _ = try await library.update(bookID: bookID, for: context.userID, now: pages.clock.now()) { entry, _ in
            entry.owned = owned
            entry.format = format
            entry.location = location
        }
        return .seeOther(ActionNotice.link(Paths.book(bookID), adding: [("saved", "copy")], anchor: "copy-heading"))
    }
}

extension BookPage {
    /// "Your copy": owned, and its format.
    struct CopySection: Sendable {
        let formPath: String
        let owned: Bool
        let formatValue: String
        let formats: [String]
        let formatError: String?
        let locationValue: String
        let locationError: String?

        init(
            _ entry: LibraryEntry, typed: (owned: Bool, format: String?, location: String?)? = nil,
            error: String? = nil, locationError: String? = nil
        ) {
            formPath = Paths.bookCopy(entry.bookID)
            owned = typed?.owned ?? entry.userBook.owned ?? false
            formatValue = typed.map { $0.format ?? "" } ?? entry.userBook.format ?? ""
            formats = BookCopyController.formats
            formatError = error
            self.locationError = locationError
            locationValue = typed.map { $0.location ?? "" } ?? entry.userBook.location ?? ""
        }
    }
}
