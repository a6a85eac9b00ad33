import Foundation
import Hummingbird

/// "Did not finish" on a book's page: the book moves to the fourth status (if it is not there yet) and keeps why the
/// person stopped. Where they stopped is their latest progress, recorded as on any book.
struct DidNotFinishController: Sendable {
    let pages: BookPageBuilder
    var library: LibraryStore { pages.library }

    static let maxReasonLength = 2_000

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.bookStop.routerPath, use: stop)
    }

    /// POST /books/:id/did-not-finish (`reason`, optional)
    @Sendable func stop(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        var request = request
        let form = try await request.formFields()
        let reason = form.trimmed("reason") ?? ""
        if let error = Self.problem(with: reason) {
            var page = try await pages.page(entry, context: context)
            page.stop = BookPage.StopSection(entry, typedReason: reason, error: error)
            return try pages.refused(page)
        }
        let bookID = entry.bookID
        _ = try await library.stop(
            bookID: bookID, for: context.userID, reason: reason.isEmpty ? nil : reason, now: pages.clock.now(),
            today: pages.clock.today())
        return .seeOther(ActionNotice.link(Paths.book(bookID), adding: [("saved", "stop")], anchor: "stopped-heading"))
    }

    /// What is wrong with a typed reason, for the person; nil when it can be kept.
    static func problem(with reason: String) -> String? {
        if reason.count > maxReasonLength {
            return localized(
                "Keep the reason to {{max}} characters or fewer.", ["max": CatalogLimits.shown(maxReasonLength)])
        }
        if NewBookForm.hasControlCharacters(reason, allowingLineBreaks: true) {
            return localized("Remove the invisible control characters from the reason.")
        }
        return nil
    }
}

extension LibraryStore {
    /// Moves the person's book to Did not finish (from any shelf, as a move would) and keeps `reason`; false when the
    /// book is not theirs.
    func stop(bookID: Int64, for userID: Int64, reason: String?, now: Date, today: String) async throws -> Bool {
        try await update(bookID: bookID, for: userID, now: now) { entry, db in
            try entry.move(to: .didNotFinish, today: today, now: now, db)
            entry.stopReason = reason
        }
    }
}

extension BookPage {
    /// The Did-not-finish part of a book's page: when the person stopped, where, and why (editable).
    struct StopSection: Sendable {
        let formPath: String
        let reasonValue: String
        let reasonError: String?

        init(_ entry: LibraryEntry, typedReason: String? = nil, error: String? = nil) {
            let userBook = entry.userBook
            formPath = Paths.bookStop(entry.bookID)
            reasonValue = typedReason ?? userBook.stopReason ?? ""
            reasonError = error
        }
    }
}
