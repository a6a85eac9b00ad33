import Foundation

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
        let words = Words()
        for (index, item) in items.enumerated() {
            let neighbour = index + 1 < items.count ? items[index + 1] : index > 0 ? items[index - 1] : nil
            appendCard(
                item, near: anchors ? neighbour?.bookID : nil, anchored: anchors, backQuery: backQuery, words: words,
                to: &html)
        }
        html += "</form>"
        return html
    }

    private static func appendCard(
        _ item: LibraryItem, near: Int64?, anchored: Bool, backQuery: String, words: Words,
        to html: inout HTMLFragment
    ) {
        let path = Paths.book(item.bookID)
        // The title appears four times; it is escaped once.
        let title = HTMLFragment(escaping: item.title)
        let cover: HTMLFragment = item.coverPath == nil ? words.noCover : words.coverOf(title)
        let starLabel: HTMLFragment = item.favourite ? words.unfavourite(title) : words.favourite(title)
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
        html += "<p class=\"card-meta\"><span class=\"badge\">\(words.shelf(item.shelf, item.kind))</span>"
        if let rating = item.rating { html += " \(Stars.html(rating, label: words.stars))" }
        if let started = item.startedAt { html += " <span>\(words.started(HTMLFragment(escaping: started)))</span>" }
        if let finished = item.finishedAt {
            let day = HTMLFragment(escaping: finished)
            html += " <span>\(item.kind == .book ? words.finished(day) : words.watched(day))</span>"
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
                value="\(shelf.rawValue)" class="chip">→ \(words.shelf(shelf, item.kind))</button>
                """
        }
        // A link, not a button: choosing lists is a page of its own (every list, ticked where the book is).
        html += """
            <a class="chip" href="\(Paths.bookLists(item.bookID))\(backQuery)" \
            aria-label="\(words.listsFor(title))">\(words.lists)</a></div></div></article>\n
            """
    }

    /// The cards' words, looked up once for the whole list: sixty cards ask the catalogue once, not sixty times.
    struct Words {
        let noCover = HTMLFragment(escaping: localized("No cover"))
        let coverOf = FilledMessage(localized("Cover of {{title}}"), "title")
        let favourite = FilledMessage(localized("Add {{title}} to favourites"), "title")
        let unfavourite = FilledMessage(localized("Remove {{title}} from favourites"), "title")
        let started = FilledMessage(localized("Started {{day}}"), "day")
        let finished = FilledMessage(localized("Finished {{day}}"), "day")
        let watched = FilledMessage(localized("Watched {{day}}"), "day")
        let listsFor = FilledMessage(localized("Lists for {{title}}"), "title")
        let lists = HTMLFragment(escaping: localized("Lists…"))
        let stars = Stars.Label()
        private let shelves: [TitleKind: [Shelf: HTMLFragment]]

        init() {
            shelves = Dictionary(
                uniqueKeysWithValues: TitleKind.allCases.map { kind in
                    let names = Shelf.allCases.map { ($0, HTMLFragment(escaping: $0.title(for: kind))) }
                    return (kind, Dictionary(uniqueKeysWithValues: names))
                })
        }

        /// The shelf's name for a title of `kind` (Want to read, Want to watch).
        func shelf(_ shelf: Shelf, _ kind: TitleKind) -> HTMLFragment {
            shelves[kind]?[shelf] ?? HTMLFragment(escaping: shelf.title(for: kind))
        }
    }

    /// A message with one `{{name}}`, looked up once and filled for each item of a list with a value already escaped.
    struct FilledMessage: Sendable {
        private let before: HTMLFragment
        private let after: HTMLFragment

        init(_ message: String, _ name: String) {
            if let range = message.range(of: "{{" + name + "}}") {
                before = HTMLFragment(escaping: String(message[..<range.lowerBound]))
                after = HTMLFragment(escaping: String(message[range.upperBound...]))
            } else {
                before = HTMLFragment(escaping: message)
                after = HTMLFragment()
            }
        }

        func callAsFunction(_ value: HTMLFragment) -> HTMLFragment {
            var html = before
            html += value
            html += after
            return html
        }
    }
}

/// A rating as five stars filled to the quarter, for cards and lists; read out as "Rated 3¾ out of 5".
enum Stars {
    /// "Rated … out of 5" in the request's language, looked up once for a list of ratings.
    struct Label: Sendable {
        fileprivate let message: BookCardList.FilledMessage

        init() {
            message = BookCardList.FilledMessage(localized("Rated {{stars}} out of 5"), "stars")
        }
    }

    static func html(_ rating: Double, label: Label = Label()) -> HTMLFragment {
        let quarters = Int((min(max(rating, 0), 5) * 4).rounded())
        // The number as `BookPage.starsLabel` writes it ("3¾"), without its word for stars.
        let (whole, part) = quarters.quotientAndRemainder(dividingBy: 4)
        let fraction = ["", "¼", "½", "¾"][part]
        let spoken = HTMLFragment(escaping: whole == 0 ? fraction : "\(whole)\(fraction)")
        return """
            <span class="stars" role="img" aria-label="\(label.message(spoken))"><span class="stars-on q\(quarters)">\
            </span></span>
            """
    }
}
