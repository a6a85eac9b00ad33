import Foundation
import Hummingbird

/// What a card or form just did, said on the page it returns to ("Moved *Dune* to Read", with Undo; "Saved."),
/// as a toast that stays in view wherever the page was scrolled to.
///
/// The notice travels in the returned-to link's query, so it needs no session state: only known words, a shelf and
/// the person's own book id. The title is looked up again for the signed-in person, so a forged or shared link
/// shows nothing of anyone else's and no text from the link itself.
struct ActionNotice: Sendable {
    /// The query parameters a notice adds; they are taken off again for Undo and for the "dismiss" link.
    static let parameters: Set<String> = [
        "done", "book", "from", "was_started", "was_finished", "ask", "saved", "was_rating",
    ]

    /// `path` (a page's own relative link) with its notice parameters replaced by `adding`, then `#anchor`.
    static func link(_ path: String, adding: [(String, String)] = [], anchor: String? = nil) -> String {
        let withoutAnchor = path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutAnchor.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var pairs: [String] = []
        if parts.count == 2 {
            pairs = parts[1].split(separator: "&").map(String.init).filter { pair in
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                return !parameters.contains(name)
            }
        }
        pairs += adding.map { $0.0 + "=" + Paths.queryEscape($0.1) }
        var link = String(parts[0])
        if !pairs.isEmpty { link += "?" + pairs.joined(separator: "&") }
        if let anchor { link += "#" + anchor }
        return link
    }

    /// Where to go after adding a book: its page (or `returnTo`) saying so, and asking when a book put straight on
    /// Read was finished.
    static func added(_ bookID: Int64, to shelf: Shelf, returnTo: String?) -> String {
        var adding = [("done", "added"), ("book", String(bookID))]
        if shelf == .read { adding.append(("ask", "finished")) }
        return link(returnTo ?? Paths.book(bookID), adding: adding)
    }

    /// What the redirect after a saved form says: a fixed sentence per form, never text from the link.
    static var savedMessages: [String: String] {
        [
            "review": localized("Saved your rating and notes."),
            "tmdb": localized("TMDB accepted the token: films and shows now come from TMDB."),
            "tmdb-unchecked": localized(
                "Saved the token. TMDB could not be asked just now; a search will tell if it is refused."),
            "tmdb-forgotten": localized("Forgot the token typed here."),
            "dates": localized("Saved the reading dates."),
            "profile": localized("Saved your profile."),
            "goal": localized("Saved your reading goal."),
            "password": localized("Saved your new password."),
            "avatar": localized("Saved your picture."),
            "photo": localized("Saved the photo."),
            "book": localized("Saved the book's details."),
            "cover": localized("Saved the new cover."),
            "progress": localized("Saved your progress."),
            "journal": localized("Saved the journal entry."),
            "journal-deleted": localized("Deleted the journal entry."),
            "read-again": localized("A new read starts today; the one you finished is kept under Earlier reads."),
            "watched-again": localized("Another viewing is kept; the ones before are listed under Earlier viewings."),
            "watching-again": localized(
                "A new viewing starts today; the episodes you watched before stay in the one before."),
            "episode-watched": localized("Marked the episode watched."),
            "episodes-up-to": localized("Marked every episode up to there watched."),
            "season-watched": localized("Marked the season watched."),
            "episode-unwatched": localized("Marked it not watched."),
            "show-caught-up": localized("All caught up: moved to Watched."),
            "stop": localized("Saved: you did not finish this one."),
            "copy": localized("Saved your copy's details."),
            "list": localized("Saved the list."),
            "list-created": localized("Made the list. Add books from their pages, or from Lists on a shelf card."),
            "list-deleted": localized("Deleted the list. Its books are still on your shelves."),
            "list-added": localized("Added the book to the list."),
            "lists": localized("Saved which lists the book is on."),
            "touch-up": localized("Saved the photo. The original is kept: “Undo all edits” brings it back."),
            "touch-up-undone": localized("Back to the photo as it was taken."),
            "recommended": localized("Recommended. It waits on their home page until they dismiss it."),
            "asked": localized("Asked. They see your request on their home page and can lend it to you."),
            "request-lent": localized("Lent: the book page and the house library say who has it."),
            "request-declined": localized("Declined."),
            "lent": localized("Lent. The book page and the house library say who has it."),
            "returned": localized("Marked returned: the copy is back on your shelf."),
            "invitation-revoked": localized("Revoked the invitation: its link no longer works."),
            "member-removed": localized("Removed the member and everything of theirs."),
            "sign-up-open": localized(
                "Sign-up is open: anyone who can reach this server can make an account and join."),
            "sign-up-closed": localized("Sign-up is closed: people join only with an invitation link from you."),
            "admin-handed": localized("You handed the admin role on; you are a member of the household now."),
            "shared": localized("Shared with the household: it shows in the house feed while you share your reading."),
            "unshared": localized("No longer shared: nobody else sees it now."),
            "challenge": localized("Saved the house reading challenge. Everyone who shares their reading adds to it."),
            "challenge-removed": localized("Removed this year's house reading challenge."),
            "for-you-seen": localized("Marked as seen. Requests still count until you answer them."),
            "together-told": localized("Told them. It goes on their shelf when they say yes in For you."),
            "together-added": localized("Added to your shelf with the day you watched it together."),
            "together-declined": localized("Left it off your shelf."),
            "jellyfin-users": localized("Saved who is who in Jellyfin."),
            "jellyfin-server-forgotten": localized("Shelfed no longer asks your Jellyfin server anything."),
            "title-matched": localized("Saved: it has its poster and details now."),
            "title-kept": localized("Kept as the export wrote it."),
            "jellyfin-forgotten": localized(
                "The webhook's address no longer works. Make a new one to connect Jellyfin again."),
        ]
    }

    /// The toast for `query` on the page at `path`, or nil when it names nothing of this person's.
    static func toast(
        query: FormFields, path: String, userID: Int64, library: LibraryStore, csrfToken: String, today: String
    ) async throws -> HTMLFragment? {
        if let saved = query["saved"], let message = savedMessages[saved] {
            return frame(HTMLFragment(escaping: message), actions: nil, dismiss: link(path))
        }
        guard let done = query["done"], let bookID = query["book"].flatMap({ Int64($0) }), bookID > 0,
            let entry = try await library.entry(bookID: bookID, of: userID)
        else { return nil }
        let title = HTMLFragment(escaping: entry.book.title)
        let here = link(path, anchor: "book-\(bookID)")
        let hidden: HTMLFragment = """
            <input type="hidden" name="_csrf" value="\(csrfToken)"><input type="hidden" name="return_to" value="\(here)">
            """
        switch done {
        case "moved", "moved-back", "added":
            let shelf = entry.userBook.shelf
            let (titleHTML, shelfHTML) = (title.html, HTMLEscaper.escape(shelf.title(for: entry.book.kind)))
            var message =
                switch done {
                case "added":
                    marked(
                        localized("Added <em>{{title}}</em> to {{shelf}}.", ["title": titleHTML, "shelf": shelfHTML]))
                case "moved":
                    marked(
                        localized("Moved <em>{{title}}</em> to {{shelf}}.", ["title": titleHTML, "shelf": shelfHTML]))
                default:
                    marked(
                        localized(
                            "Moved <em>{{title}}</em> back to {{shelf}}.", ["title": titleHTML, "shelf": shelfHTML]))
                }
            var actions: HTMLFragment = ""
            if query["ask"] == "finished", shelf == .read, entry.userBook.finishedAt == nil {
                let question =
                    entry.book.kind == .book
                    ? localized("Finished today, or when?") : localized("Watched today, or when?")
                message += " <span class=\"toast-question\">\(question)</span>"
                actions += """
                    <form method="post" action="\(Paths.bookDates(bookID))" class="toast-form">\(hidden)\
                    <input type="hidden" name="started_at" value="\(entry.userBook.startedAt ?? "")">\
                    <label class="visually-hidden" for="toast-finished">\(localized("Finished on"))</label>\
                    <input id="toast-finished" name="finished_at" type="date" value="\(today)" max="\(today)">\
                    <button type="submit" class="button primary">\(localized("Save date"))</button></form>
                    """
            }
            if done == "moved", let from = query["from"].flatMap(Shelf.init(rawValue:)), from != shelf {
                actions += """
                    <form method="post" action="\(Paths.bookShelf(bookID))" class="toast-form">\(hidden)\
                    <input type="hidden" name="shelf" value="\(from.rawValue)"><input type="hidden" name="undo" value="1">\
                    <input type="hidden" name="restore_started" value="\(Self.day(query["was_started"]) ?? "")">\
                    <input type="hidden" name="restore_finished" value="\(Self.day(query["was_finished"]) ?? "")">\
                    <button type="submit" class="button">\(localized("Undo"))</button></form>
                    """
            }
            return frame(message, actions: actions.isEmpty ? nil : actions, dismiss: link(path))
        case "last-page":
            guard entry.userBook.shelf != .read else {
                let saved = HTMLFragment(escaping: localized("Saved your progress."))
                return frame(saved, actions: nil, dismiss: link(path))
            }
            let finish: HTMLFragment = """
                <form method="post" action="\(Paths.bookShelf(bookID))" class="toast-form">\(hidden)\
                <input type="hidden" name="shelf" value="\(Shelf.read.rawValue)">\
                <button type="submit" class="button primary">\(localized("Mark it read"))</button></form>
                """
            return frame(
                marked(
                    localized(
                        "Saved your progress: that is the end of <em>{{title}}</em>. Finished it?",
                        ["title": title.html])),
                actions: finish, dismiss: link(path))
        case "list-removed":
            return frame(
                marked(
                    localized(
                        "Took <em>{{title}}</em> off the list. It is still on your shelves.", ["title": title.html])),
                actions: nil, dismiss: link(path))
        case "rated":
            let rating = entry.userBook.rating
            let message =
                rating.map {
                    marked(
                        localized(
                            "Rated <em>{{title}}</em> {{stars}}.",
                            ["title": title.html, "stars": HTMLEscaper.escape(BookPage.starsLabel($0))]))
                } ?? marked(localized("Took your rating off <em>{{title}}</em>.", ["title": title.html]))
            // What it was, to put back: a number the form accepts again, or "none"; anything else offers no undo.
            let was = query["was_rating"].flatMap { text in
                text == "none" ? "" : Double(text).flatMap { EntryChange.isValidRating($0) ? text : nil }
            }
            guard query["from"] != "undo", let was else { return frame(message, actions: nil, dismiss: link(path)) }
            let undo: HTMLFragment = """
                <form method="post" action="\(Paths.bookRating(bookID))" class="toast-form">\(hidden)\
                <input type="hidden" name="rating" value="\(was)"><input type="hidden" name="undo" value="1">\
                <button type="submit" class="button">\(localized("Undo"))</button></form>
                """
            return frame(message, actions: undo, dismiss: link(path))
        case "favourited", "unfavourited":
            let on = entry.userBook.favourite
            let message =
                on
                ? marked(localized("Added <em>{{title}}</em> to your favourites.", ["title": title.html]))
                : marked(localized("Removed <em>{{title}}</em> from your favourites.", ["title": title.html]))
            let undo: HTMLFragment = """
                <form method="post" action="\(Paths.bookFavourite(bookID))" class="toast-form">\(hidden)\
                <input type="hidden" name="favourite" value="\(on ? "0" : "1")"><input type="hidden" name="undo" value="1">\
                <button type="submit" class="button">\(localized("Undo"))</button></form>
                """
            // An undo says what it did without offering to undo the undo.
            return frame(message, actions: query["from"] == "undo" ? nil : undo, dismiss: link(path))
        default:
            return nil
        }
    }

    /// The toast for the page `request` asked for (its own path and query), said to the signed-in person.
    static func toast(
        for request: Request, context: SignedInContext, library: LibraryStore, today: String
    ) async throws -> HTMLFragment? {
        let query = request.uri.query ?? ""
        return try await toast(
            query: FormFields(urlEncoded: query), path: request.uri.path + (query.isEmpty ? "" : "?" + query),
            userID: context.userID, library: library, csrfToken: context.csrfToken, today: today)
    }

    /// "Saved …" for a page that has no book notices (a photo's page).
    static func saved(_ form: String, dismiss: String) -> HTMLFragment? {
        savedMessages[form].map { frame(HTMLFragment(escaping: $0), actions: nil, dismiss: dismiss) }
    }

    private static func day(_ text: String?) -> String? {
        text.flatMap { CalendarDate.isValidDay($0) ? $0 : nil }
    }

    private static func frame(_ message: HTMLFragment, actions: HTMLFragment?, dismiss: String) -> HTMLFragment {
        var html: HTMLFragment = "<div class=\"toast\" role=\"status\"><p class=\"toast-message\">\(message)</p>"
        if let actions { html += "<div class=\"toast-actions\">\(actions)</div>" }
        html += """
            <a class="toast-dismiss" href="\(dismiss)" aria-label="\(localized("Dismiss this message"))">×</a></div>
            """
        return html
    }

    /// A message whose markup (`<em>{{title}}</em>`) is the catalogue's own, filled with values already escaped.
    private static func marked(_ message: String) -> HTMLFragment {
        HTMLFragment(verbatim: message)
    }
}
