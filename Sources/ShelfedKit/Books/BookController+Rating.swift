import Foundation
import Hummingbird

extension BookController {
    /// POST /books/:id/rating (`rating` ¼ to 5, or empty for none; `undo` = 1 when it puts back the one before): the
    /// stars at the top of the book page, saved on one tap. The notice offers to put back the rating it replaced.
    @Sendable func rate(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let entry = try await requireEntry(context)
        let form = try await request.formFields()
        var change = EntryChange()
        if let text = form.trimmed("rating") {
            guard let rating = Double(text), EntryChange.isValidRating(rating) else {
                throw HTTPError(.badRequest, message: localized("Choose a rating from ½ to 5 stars, or none."))
            }
            change.rating = .set(rating)
        } else {
            change.rating = .set(nil)
        }
        let bookID = entry.bookID
        if let problems = try await library.apply(
            change, bookID: bookID, for: entry.userBook.userId, now: clock.now(), today: clock.today()),
            !problems.isEmpty
        {
            throw HTTPError(.badRequest, message: problems["rating"] ?? localized("That rating could not be saved."))
        }
        var notice = [("done", "rated"), ("book", String(bookID))]
        notice.append(
            form["undo"] == "1" ? ("from", "undo") : ("was_rating", entry.userBook.rating.map { String($0) } ?? "none"))
        return .seeOther(ActionNotice.link(Paths.book(bookID), adding: notice))
    }
}
