import Foundation
import GRDB
import Mustache

extension BookPage {
    /// Page to screen on a title's page (issue 38): a book's films and shows, or the book a film or show is based on;
    /// "Read it first?" when the adaptation waits on Want to watch and the book is not read; and who in the house (of
    /// those who share) read it or watched it. Only what someone in the house has is named, from what was kept.
    struct PageToScreenSection: Sendable {
        struct Link: Sendable {
            let lead: String
            let title: String
            let path: String?
            let after: String
        }

        let heading: String
        let links: [Link]
        let readFirst: String?
        let house: String?

        /// Read inside the page's transaction: nil when nothing is known.
        static func read(_ entry: LibraryEntry, viewer: Int64, _ db: Database) throws -> PageToScreenSection? {
            entry.book.kind == .book
                ? try screens(of: entry, viewer: viewer, db) : try books(of: entry, viewer: viewer, db)
        }

        /// The films and shows based on a book: rows whose kept source has the book's title (and, where both name
        /// one, its author), that the viewer or someone who shares has.
        private static func screens(of entry: LibraryEntry, viewer: Int64, _ db: Database) throws
            -> PageToScreenSection?
        {
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        WITH sharing AS (\(HouseholdSharing.sharingMembers))
                        SELECT DISTINCT screen.id, screen.kind, screen.title, screen.published_date,
                            adaptation.source_author,
                            (SELECT mine.book_id FROM user_book AS mine WHERE mine.user_id = :viewer
                                AND mine.book_id = screen.id) AS mine,
                            (SELECT group_concat(sharing.display_name, ', ') FROM user_book AS theirs
                                JOIN sharing ON sharing.id = theirs.user_id
                                WHERE theirs.book_id = screen.id AND theirs.shelf = 'read') AS watchers,
                            EXISTS (SELECT 1 FROM user_book AS theirs JOIN sharing ON sharing.id = theirs.user_id
                                WHERE theirs.book_id = screen.id) AS in_house
                        FROM adaptation JOIN book AS screen ON screen.id = adaptation.screen_book_id
                        WHERE adaptation.source_title = :title COLLATE NOCASE
                        ORDER BY screen.published_date, screen.id LIMIT 10
                        """), arguments: ["viewer": viewer, "title": entry.book.title])
            let author = entry.book.authors.first.map(LibraryMatch.fold)
            var links: [Link] = []
            var watchers: [String] = []
            for row in rows {
                let sourceAuthor = (row["source_author"] as String?).map(LibraryMatch.fold)
                if let author, let sourceAuthor, author != sourceAuthor { continue }
                let mine: Int64? = row["mine"]
                guard mine != nil || row["in_house"] as Bool else { continue }
                let kind = TitleKind(rawValue: row["kind"]) ?? .movie
                let year = (row["published_date"] as String?).map { " (\($0.prefix(4)))" } ?? ""
                links.append(
                    Link(
                        lead: kind == .show ? localized("The TV show") : localized("The film"), title: row["title"],
                        path: mine.map(Paths.book) ?? Paths.houseBook(row["id"]), after: year))
                for name in ((row["watchers"] as String?) ?? "").components(separatedBy: ", ") where !name.isEmpty {
                    if !watchers.contains(name) { watchers.append(name) }
                }
            }
            guard !links.isEmpty else { return nil }
            return PageToScreenSection(
                heading: localized("On screen"), links: links, readFirst: nil,
                house: watchers.isEmpty
                    ? nil : localized("In the house: {{watchers}} watched it.", ["watchers": names(watchers)]))
        }

        /// The book a film or show is based on, with the viewer's own copy or the house's, "Read it first?" and who
        /// read it and who watched it.
        private static func books(of entry: LibraryEntry, viewer: Int64, _ db: Database) throws
            -> PageToScreenSection?
        {
            let sources = try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT source_title, source_author FROM adaptation WHERE screen_book_id = ? ORDER BY source_title"
                ),
                arguments: [entry.bookID])
            guard !sources.isEmpty else { return nil }
            var links: [Link] = []
            var readFirst: String?
            var readers: [String] = []
            for source in sources {
                let title: String = source["source_title"]
                let author: String? = source["source_author"]
                let mine = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT user_book.book_id, user_book.shelf FROM user_book JOIN book ON book.id = user_book.book_id
                            WHERE user_book.user_id = ? AND book.kind = 'book' AND book.title = ? COLLATE NOCASE
                            ORDER BY user_book.shelf = 'read' DESC LIMIT 1
                            """), arguments: [viewer, title])
                let house = try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            WITH sharing AS (\(HouseholdSharing.sharingMembers))
                            SELECT book.id, sharing.display_name, user_book.shelf FROM user_book
                            JOIN sharing ON sharing.id = user_book.user_id JOIN book ON book.id = user_book.book_id
                            WHERE book.kind = 'book' AND book.title = :title COLLATE NOCASE
                            ORDER BY sharing.display_name COLLATE NOCASE LIMIT 20
                            """), arguments: ["viewer": viewer, "title": title])
                let path =
                    (mine?["book_id"] as Int64?).map(Paths.book) ?? (house.first?["id"] as Int64?).map(Paths.houseBook)
                links.append(
                    Link(
                        lead: localized("Based on the book"), title: title, path: path,
                        after: author.map { " " + localized("by {{author}}", ["author": $0]) } ?? ""))
                for row in house where row["shelf"] == "read" {
                    let name: String = row["display_name"]
                    if !readers.contains(name) { readers.append(name) }
                }
                let read = (mine?["shelf"] as String?) == Shelf.read.rawValue
                if readFirst == nil, entry.userBook.shelf == .wantToRead, !read {
                    let shelf = Shelf(rawValue: mine?["shelf"] ?? "")?.title(for: .book)
                    readFirst =
                        mine == nil
                        ? localized("Read it first? You have not read {{title}} yet.", ["title": title])
                        : shelf.map {
                            localized("Read it first? {{title}} is on your {{shelf}}.", ["title": title, "shelf": $0])
                        } ?? localized("Read it first? {{title}} is on your shelves.", ["title": title])
                }
            }
            let watchers = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        WITH sharing AS (\(HouseholdSharing.sharingMembers))
                        SELECT sharing.display_name FROM user_book JOIN sharing ON sharing.id = user_book.user_id
                        WHERE user_book.book_id = :book AND user_book.shelf = 'read'
                        ORDER BY sharing.display_name COLLATE NOCASE LIMIT 20
                        """), arguments: ["viewer": viewer, "book": entry.bookID])
            let house: String? =
                switch (readers.isEmpty, watchers.isEmpty) {
                case (false, false):
                    localized(
                        "In the house: {{readers}} read it, {{watchers}} watched it.",
                        ["readers": names(readers), "watchers": names(watchers)])
                case (false, true): localized("In the house: {{readers}} read it.", ["readers": names(readers)])
                case (true, false): localized("In the house: {{watchers}} watched it.", ["watchers": names(watchers)])
                case (true, true): nil
                }
            return PageToScreenSection(
                heading: localized("From the page"), links: links, readFirst: readFirst, house: house)
        }

        /// "Sam", "Sam and Robin", "Sam, Robin and Kit".
        static func names(_ names: [String]) -> String {
            guard names.count > 1 else { return names.first ?? "" }
            return localized(
                "{{names}} and {{last}}", ["names": names.dropLast().joined(separator: ", "), "last": names.last!])
        }
    }
}

extension BookPage.PageToScreenSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "heading": self.heading
        case "links": self.links
        case "readFirst": self.readFirst
        case "house": self.house
        default: nil
        }
    }
}

extension BookPage.PageToScreenSection.Link: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "lead": self.lead
        case "title": self.title
        case "path": self.path
        case "after": self.after
        default: nil
        }
    }
}
