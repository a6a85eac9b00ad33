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
        let before: String
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
        for item in items {
            html +=
                "<li><time datetime=\"\(item.day)\">\(item.shownDay)</time> <strong>"
            let people = [(item.member, item.memberPath)] + item.companions
            for (index, (name, path)) in people.enumerated() {
                if index > 0 { html += index == people.count - 1 ? " and " : ", " }
                if let path {
                    html += "<a href=\"\(path)\">\(name)</a>"
                } else {
                    html += "\(name)"
                }
            }
            html += "</strong> \(item.before) "
            if let path = item.path {
                html += "<a href=\"\(path)\">\(item.title)</a>"
            } else {
                html += "<em>\(item.title)</em>"
            }
            html += "\(item.after)</li>\n"
        }
        html += "</ol>"
        return html
    }

    static func item(_ item: HouseholdSharing.FeedItem, today: String) -> Item {
        let amount: String =
            if let read = item.readThatDay {
                item.byPercent
                    ? "read \(ProgressValues.percentText(read)) % of"
                    : "read \(Int(read)) \(Int(read) == 1 ? "page" : "pages") of"
            } else if item.byPercent {
                "is \(ProgressValues.percentText(item.pageOrPercent ?? 0)) % into"
            } else {
                "is on page \(Int(item.pageOrPercent ?? 0)) of"
            }
        let books = Int(item.pageOrPercent ?? 0)
        let (before, after): (String, String) =
            switch item.kind {
            case .started: (item.titleKind == .book ? "started" : "started watching", "")
            case .finished:
                (
                    item.titleKind == .book ? "finished" : item.titleKind == .show ? "finished watching" : "watched",
                    item.rating.map { " · \(BookPage.starsLabel($0))" } ?? ""
                )
            case .stopped: (item.titleKind == .book ? "put down" : "stopped watching", "")
            case .progress: (amount, "")
            case .photo: ("shared a photo from", item.pageOrPercent.map { ", page \(Int($0))" } ?? "")
            case .list: ("shared the list", "")
            case .imported: ("brought \(books.grouped) \(books == 1 ? "book" : "books") from", "")
            case .episodes: (item.episodes?.before ?? "watched", item.episodes?.after ?? "")
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
            companions: item.companions.map { ($0.name, $0.memberID.map(Paths.houseMember)) }, before: before,
            title: item.title, after: after, path: path)
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
            self.copies = copies.map { copy in
                var parts = ["on \(copy.shelf.title)"]
                if let rating = copy.rating { parts.append("rated \(BookPage.starsLabel(rating))") }
                if copy.owned {
                    // The borrower is told they hold it, not that it is "out on loan" (issue 35).
                    parts.append(
                        copy.lentToViewer
                            ? "owns a copy, lent to you"
                            : copy.onLoan
                                ? "owns a copy, out on loan"
                                : copy.askedAt.map { "owns a copy · you asked to borrow it on \($0.formatted(day))" }
                                    ?? "owns a copy")
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
