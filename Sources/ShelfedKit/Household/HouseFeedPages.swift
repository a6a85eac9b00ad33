import Foundation

/// The house feed as the home page and `/house/feed` show it: one line per thing a sharing member did.
struct HouseFeedSection: Sendable {
    struct Item: Sendable {
        let day: String
        /// "today", "yesterday", "3 Nov", or "3 Nov 2025" in another year.
        var shownDay: String = ""
        let member: String
        /// The member's page.
        var memberPath: String? = nil
        /// Who watched it with them that day, with their pages.
        var companions: [(name: String, path: String?)] = []
        /// The line in the request's language, `{{name}}` the people and `{{title}}` the title: "{{name}} finished
        /// {{title}}".
        let message: String
        let title: String
        let after: String
        let path: String?
    }

    let items: [Item]
    /// The items as markup, built in Swift like the book cards: the home page's most repeated lines, where
    /// Mustache's lookups per field were the larger part of the feed's cost.
    let itemsHTML: HTMLFragment
    let isEmpty: Bool
    let morePath: String?
    let settingsPath = Paths.profileEdit + "#sharing-heading"
    /// Whether the viewer shares: the empty state says how to start.
    let viewerShares: Bool

    init(
        _ feed: (items: [HouseholdSharing.FeedItem], hasMore: Bool), page: Int, viewerShares: Bool, today: String
    ) {
        items = HouseholdSharing.foldWatchedTogether(feed.items).map { Self.item($0, today: today) }
        itemsHTML = Self.html(items)
        isEmpty = feed.items.isEmpty
        morePath = feed.hasMore ? Paths.houseFeed + "?page=\(page + 1)" : nil
        self.viewerShares = viewerShares
    }

    static func html(_ items: [Item]) -> HTMLFragment {
        var html: HTMLFragment = "<ol class=\"house-feed\">\n"
        // "Robin, Sam and Alex": the last name joined as the language joins it.
        let joined = localized("{{names}} and {{name}}")
        for item in items {
            html += "<li><time datetime=\"\(item.day)\">\(item.shownDay)</time> "
            let people = ([(item.member, item.memberPath)] + item.companions).map { name, path -> HTMLFragment in
                if let path { return "<a href=\"\(path)\">\(name)</a>" }
                return "\(name)"
            }
            var names: HTMLFragment = "<strong>"
            if let last = people.last, people.count > 1 {
                var others = people[0]
                for person in people.dropFirst().dropLast() {
                    others += ", "
                    others += person
                }
                names += HouseSentence.html(joined, ["names": others, "name": last])
            } else {
                names += people[0]
            }
            names += "</strong>"
            let title: HTMLFragment =
                if let path = item.path { "<a href=\"\(path)\">\(item.title)</a>" } else { "<em>\(item.title)</em>" }
            html += HouseSentence.html(item.message, ["name": names, "title": title])
            html += "\(item.after)</li>\n"
        }
        html += "</ol>"
        return html
    }

    static func item(_ item: HouseholdSharing.FeedItem, today: String) -> Item {
        // How many watched it together, for the verb ("Robin and Sam watched").
        let people = 1 + item.companions.count
        let onScreen = item.titleKind != .book
        let message: String
        var after = ""
        switch item.kind {
        case .started:
            message =
                onScreen ? localized("{{name}} started watching {{title}}") : localized("{{name}} started {{title}}")
        case .finished:
            message =
                switch item.titleKind {
                case .book: localized("{{name}} finished {{title}}")
                case .show: localized("{{name}} finished watching {{title}}")
                case .movie: Self.watched(people: people)
                }
            after = item.rating.map { " · \(BookPage.starsLabel($0))" } ?? ""
        case .stopped:
            message =
                onScreen ? localized("{{name}} stopped watching {{title}}") : localized("{{name}} put down {{title}}")
        case .progress:
            message = progress(item)
        case .photo:
            message =
                item.pageOrPercent.map {
                    localized("{{name}} shared a photo from {{title}}, page {{page}}", ["page": String(Int($0))])
                } ?? localized("{{name}} shared a photo from {{title}}")
        case .list:
            message = localized("{{name}} shared the list {{title}}")
        case .imported:
            message = localized(
                one: "{{name}} brought {{count}} book from {{title}}",
                other: "{{name}} brought {{count}} books from {{title}}", count: Int(item.pageOrPercent ?? 0))
        case .episodes:
            message = item.episodes?.sentence(people: people) ?? Self.watched(people: people)
        }
        let path: String? =
            switch (item.kind, item.sharedID) {
            case (.photo, let id?): Paths.housePhoto(id)
            case (.list, let id?): Paths.houseList(id)
            case (.imported, _): nil
            default: item.viewerBookID.map(Paths.book) ?? item.bookID.map(Paths.houseBook)
            }
        return Item(
            day: item.day, shownDay: HumanDay.text(item.day, today: today), member: item.member,
            memberPath: item.memberID.map(Paths.houseMember),
            companions: item.companions.map { ($0.name, $0.memberID.map(Paths.houseMember)) }, message: message,
            title: item.title, after: after, path: path)
    }

    /// "{{name}} watched {{title}}": a film, alone or together.
    private static func watched(people: Int) -> String {
        localized(one: "{{name}} watched {{title}}", other: "{{name}} watched {{title}}", count: people)
    }

    /// A day's reading: how far it went that day, or where it stands after a first update.
    private static func progress(_ item: HouseholdSharing.FeedItem) -> String {
        if let read = item.readThatDay {
            return item.byPercent
                ? localized("{{name}} read {{percent}} % of {{title}}", ["percent": ProgressValues.percentText(read)])
                : localized(
                    one: "{{name}} read {{count}} page of {{title}}",
                    other: "{{name}} read {{count}} pages of {{title}}", count: Int(read))
        }
        return item.byPercent
            ? localized(
                "{{name}} is {{percent}} % into {{title}}",
                ["percent": ProgressValues.percentText(item.pageOrPercent ?? 0)])
            : localized("{{name}} is on page {{page}} of {{title}}", ["page": String(Int(item.pageOrPercent ?? 0))])
    }
}

/// A sentence in the request's language built around values (issue 39). Its `{{name}}`s are filled in one pass, so
/// a value that holds braces itself (a display name, a title) is never read as a placeholder.
enum HouseSentence {
    /// `message` with each `{{key}}` of `values` replaced; other placeholders stay as they are.
    static func fill(_ message: String, _ values: [String: String]) -> String {
        var filled = ""
        var rest = message[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            filled += rest[..<open.lowerBound]
            filled +=
                values[String(rest[open.upperBound..<close.lowerBound])]
                ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return filled + rest
    }

    /// `message` as markup: its own words escaped, each `{{key}}` of `values` replaced by markup built by the caller.
    static func html(_ message: String, _ values: [String: HTMLFragment]) -> HTMLFragment {
        var html = HTMLFragment()
        var rest = message[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            html += HTMLFragment(escaping: String(rest[..<open.lowerBound]))
            html +=
                values[String(rest[open.upperBound..<close.lowerBound])]
                ?? HTMLFragment(escaping: String(rest[open.lowerBound..<close.upperBound]))
            rest = rest[close.upperBound...]
        }
        html += HTMLFragment(escaping: String(rest))
        return html
    }

    /// A line around its title, as the For you lists show one ("Sam lent you", title, ". Enjoy it."): the words
    /// before `{{title}}` and after it, with `values` filled in.
    static func around(_ message: String, _ values: [String: String]) -> (lead: String, after: String) {
        guard let title = message.range(of: "{{title}}") else { return (fill(message, values), "") }
        var lead = message[..<title.lowerBound]
        while lead.last == " " { lead.removeLast() }
        return (fill(String(lead), values), fill(String(message[title.upperBound...]), values))
    }
}

/// `household/feed`: the house feed, paged.
struct HouseFeedPage: Sendable {
    let chrome: PageChrome
    let feed: HouseFeedSection
    let previousPath: String?
}

extension BookPage {
    /// "In the house": who else who shares has this book, on which shelf, their rating, whether they own it.
    struct HouseSection: Sendable {
        struct Copy: Sendable {
            let member: String
            /// Their housemate page.
            let memberPath: String?
            let summary: String
            /// "Ask to borrow", for a copy they own that is not out.
            let askPath: String?
            /// Their review, when they shared it.
            let review: String?
        }

        let copies: [Copy]
        let returnTo: String

        /// `returnTo`: where "Ask to borrow" comes back to; the book's page unless said.
        init?(
            _ copies: [HouseholdSharing.HouseCopy], bookID: Int64, timeZone: TimeZone = .current,
            returnTo: String? = nil
        ) {
            guard !copies.isEmpty else { return nil }
            self.returnTo = returnTo ?? Paths.book(bookID)
            var day = Date.FormatStyle.dateTime.day().month(.abbreviated)
            day.timeZone = timeZone
            if Language.current != .en { day.locale = Language.current.locale }
            self.copies = copies.map { copy in
                var parts = [localized("on {{shelf}}", ["shelf": copy.shelf.title])]
                if let rating = copy.rating {
                    parts.append(localized("rated {{stars}}", ["stars": BookPage.starsLabel(rating)]))
                }
                if copy.owned {
                    // The borrower is told they hold it, not that it is "out on loan" (issue 35).
                    parts.append(
                        copy.lentToViewer
                            ? localized("owns a copy, lent to you")
                            : copy.onLoan
                                ? localized("owns a copy, out on loan")
                                : copy.askedAt.map {
                                    localized(
                                        "owns a copy · you asked to borrow it on {{day}}", ["day": $0.formatted(day)])
                                } ?? localized("owns a copy"))
                }
                return Copy(
                    member: copy.member, memberPath: copy.memberID.map(Paths.houseMember),
                    summary: parts.joined(separator: " · "),
                    askPath: copy.owned && !copy.onLoan && copy.askedAt == nil ? Paths.borrowAsk(copy.entryID) : nil,
                    review: copy.review)
            }
        }
    }
}
