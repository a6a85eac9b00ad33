/// Renders lists of book cards straight to HTML. Shelf pages show 60 cards; through Mustache's reflection
/// a page cost ~9 ms of CPU against a budget of 0.5 ms, so this one hot fragment is built in Swift, through
/// `HTMLFragment` so that every value is escaped. Its markup matches the templates (classes in app.css).
///
/// All cards share one form: each button names its own action (`formaction`), so the CSRF token and the
/// page to return to are sent once per page instead of three times per card.
enum BookCardList {
    /// The cards for `items` inside one form whose buttons favourite or move a book, then return to `returnTo`.
    ///
    /// With `anchors`, each card is `#book-‹id›` and its buttons name the card beside it (`near`), so that after an
    /// action the page comes back to the same place even when the book has left the list.
    static func html(_ items: [LibraryItem], csrfToken: String, returnTo: String, anchors: Bool = false)
        -> HTMLFragment
    {
        var html: HTMLFragment = """
            <form method="post" action="\(Paths.books)" class="cards">\
            <input type="hidden" name="_csrf" value="\(csrfToken)">\
            <input type="hidden" name="return_to" value="\(returnTo)">\n
            """
        html.reserveCapacity(400 + items.count * 1_000)
        // Escaped once for every card's "Lists…" link.
        let backQuery = "?return_to=" + Paths.queryEscape(returnTo)
        for (index, item) in items.enumerated() {
            let neighbour = index + 1 < items.count ? items[index + 1] : index > 0 ? items[index - 1] : nil
            appendCard(
                item, near: anchors ? neighbour?.bookID : nil, anchored: anchors, backQuery: backQuery, to: &html)
        }
        html += "</form>"
        return html
    }

    private static func appendCard(
        _ item: LibraryItem, near: Int64?, anchored: Bool, backQuery: String, to html: inout HTMLFragment
    ) {
        let path = Paths.book(item.bookID)
        // The title appears four times; it is escaped once.
        let title = HTMLFragment(escaping: item.title)
        let cover: HTMLFragment = item.coverPath == nil ? "No cover" : "Cover of \(title)"
        let starLabel: HTMLFragment =
            item.favourite ? "Remove \(title) from favourites" : "Add \(title) to favourites"
        let id: HTMLFragment = anchored ? " id=\"book-\(item.bookID)\"" : ""
        let nearQuery: HTMLFragment = near.map { "?near=\($0)" } ?? ""
        html += """
            <article class="card"\(id)><a class="card-cover" href="\(path)" tabindex="-1" aria-hidden="true">\
            <img src="\(BookCover.url(for: item.coverPath))" alt="\(cover)" width="80" height="120" \
            loading="lazy"></a><div class="card-body"><h3 class="card-title"><a href="\(path)">\(title)</a></h3>
            """
        if !item.authors.isEmpty {
            html += "<p class=\"card-authors\">\(item.authors)</p>"
        }
        html += "<p class=\"card-meta\"><span class=\"badge\">\(item.shelfTitle)</span>"
        if let rating = item.rating { html += " \(Stars.html(rating))" }
        if let started = item.startedAt { html += " <span>Started \(started)</span>" }
        if let finished = item.finishedAt {
            html += item.kind == .book ? " <span>Finished \(finished)</span>" : " <span>Watched \(finished)</span>"
        }
        if let stopped = item.stopSummary { html += " <span>\(stopped)</span>" }
        html += """
            </p><div class="card-actions"><button type="submit" formaction="\(Paths.bookFavourite(item.bookID))\(nearQuery)" \
            name="favourite" value="\(item.favourite ? "0" : "1")" class="star\(item.favourite ? " is-on" : "")" \
            aria-pressed="\(item.favourite ? "true" : "false")" aria-label="\(starLabel)" title="\(starLabel)">\
            \(item.favourite ? "★" : "☆")</button>
            """
        // Did not finish is offered only on a book being read: on any other card it is one button too many.
        for shelf in Shelf.allCases where shelf != item.shelf && (shelf != .didNotFinish || item.shelf == .reading) {
            html += """
                <button type="submit" formaction="\(Paths.bookShelf(item.bookID))\(nearQuery)" name="shelf" \
                value="\(shelf.rawValue)" class="chip">→ \(shelf.title(for: item.kind))</button>
                """
        }
        // A link, not a button: choosing lists is a page of its own (every list, ticked where the book is).
        html += """
            <a class="chip" href="\(Paths.bookLists(item.bookID))\(backQuery)" \
            aria-label="Lists for \(title)">Lists…</a></div></div></article>\n
            """
    }
}

/// A rating as five stars filled to the quarter, for cards and lists; read out as "Rated 3¾ out of 5".
enum Stars {
    static func html(_ rating: Double) -> HTMLFragment {
        let quarters = Int((min(max(rating, 0), 5) * 4).rounded())
        let spoken = BookPage.starsLabel(Double(quarters) / 4).replacingOccurrences(of: " stars", with: "")
            .replacingOccurrences(of: " star", with: "")
        return """
            <span class="stars" role="img" aria-label="Rated \(spoken) out of 5"><span class="stars-on q\(quarters)">\
            </span></span>
            """
    }
}
