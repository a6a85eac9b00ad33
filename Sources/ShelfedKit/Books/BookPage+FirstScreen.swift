import Foundation

/// The first screen of a book page on a phone (issue 36, part 1): your rating as stars that save on one tap, the
/// shelf the book is on with the one action that shelf needs, and the first lines of the description. Everything
/// rarely used waits below, behind disclosures.
extension BookPage {
    /// Five stars, each a button that saves its whole-star rating; the star that is the rating already takes it off.
    /// Quarter stars stay in the review form.
    struct QuickRating: Sendable {
        struct Star: Sendable {
            /// What the button sends: the stars, or nothing to take the rating off.
            let value: String
            /// Filled: the rating reaches it.
            let on: Bool
            /// The rating is exactly this star.
            let pressed: Bool
            let label: String
        }

        let path: String
        let stars: [Star]
        /// "3¾ stars"; nil when there is none yet.
        let summary: String?

        init(bookID: Int64, rating: Double?) {
            path = Paths.bookRating(bookID)
            stars = (1...5).map { number in
                let value = Double(number)
                let pressed = rating == value
                return Star(
                    value: pressed ? "" : String(number), on: (rating ?? 0) >= value, pressed: pressed,
                    label: pressed
                        ? localized("Take off your rating of {{stars}}", ["stars": BookPage.starsLabel(value)])
                        : localized("Rate it {{stars}}", ["stars": BookPage.starsLabel(value)]))
            }
            summary = rating.map(BookPage.starsLabel)
        }
    }

    /// Where the book stands — "Reading, since 3 Nov" — and the one step from there.
    struct ShelfState: Sendable {
        struct Next: Sendable {
            let value: String
            let label: String
            let primary: Bool
        }

        let shelfTitle: String
        let line: String?
        /// The progress bar, while reading.
        let bar: ProgressBar?
        /// Moves to the next shelf: Start reading, Finished, Pick it up again.
        let next: [Next]
        let readAgainPath: String?
        /// "Read it again", "Watch it again".
        let readAgainLabel: String
        /// "I'm on page …": while reading, or to note where one stopped.
        let showsProgress: Bool
        /// A watched film's "Watched it again on ‹day›": where it posts, the day offered (today, or what a refused
        /// form typed) and why it was refused.
        let watchAgainPath: String?
        let watchDay: String
        let watchedOnError: String?
        /// Today: no viewing is later.
        let latestDay: String

        /// `earlierViewings`: how many times a film was watched before its latest viewing.
        init(
            _ entry: LibraryEntry, today: String, earlierViewings: Int = 0, watchDay: String? = nil,
            watchedOnError: String? = nil
        ) {
            let userBook = entry.userBook
            let kind = entry.book.kind
            // Films and shows have no page progress yet: their episodes and viewings come in the next slices.
            let tracksPages = kind.hasPages
            shelfTitle = userBook.shelf.title(for: kind)
            readAgainLabel = tracksPages ? localized("Read it again") : localized("Watch it again")
            let watchesAgain = kind == .movie && userBook.shelf == .read
            watchAgainPath = watchesAgain ? Paths.bookReadAgain(entry.bookID) : nil
            self.watchDay = watchDay ?? today
            latestDay = today
            self.watchedOnError = watchesAgain ? watchedOnError : nil
            func day(_ text: String?) -> String? { text.map { HumanDay.text($0, today: today) } }
            bar =
                userBook.shelf == .reading
                ? ProgressBar(
                    ReadingProgress(
                        page: userBook.currentPage, percent: userBook.currentPercent, pageCount: entry.book.pageCount))
                : nil
            switch userBook.shelf {
            case .wantToRead:
                line = nil
                next = [
                    Next(
                        value: kind == .movie ? Shelf.read.rawValue : Shelf.reading.rawValue,
                        label: kind == .book
                            ? localized("Start reading")
                            : kind == .movie ? localized("Watched it") : localized("Start watching"),
                        primary: true)
                ]
                readAgainPath = nil
                showsProgress = false
            case .reading:
                line = day(userBook.startedAt).map { localized("since {{day}}", ["day": $0]) }
                next = [
                    Next(
                        value: Shelf.read.rawValue,
                        label: tracksPages ? localized("Finished") : localized("Watched it"), primary: false)
                ]
                readAgainPath = nil
                showsProgress = tracksPages
            case .read:
                let times = earlierViewings + 1
                let seen = localized("seen {{times}} times", ["times": String(times)])
                line =
                    (day(userBook.finishedAt).map { tracksPages ? localized("finished {{day}}", ["day": $0]) : $0 }
                        ?? localized("date unknown"))
                    + (watchesAgain && times > 1 ? " · " + seen : "")
                next = []
                // A show watched again opens a new viewing (DESIGN §17); a film's has its day (`watchAgainPath`).
                readAgainPath = kind != .movie ? Paths.bookReadAgain(entry.bookID) : nil
                showsProgress = false
            case .didNotFinish:
                let position = ProgressValues.position(
                    percent: userBook.currentPercent, page: userBook.currentPage, pageCount: entry.book.pageCount)
                line =
                    switch (day(userBook.stoppedAt), position) {
                    case (let stopped?, let place?):
                        localized("stopped {{day}} at {{position}}", ["day": stopped, "position": place])
                    case (let stopped?, nil): localized("stopped {{day}}", ["day": stopped])
                    case (nil, let place?): localized("at {{position}}", ["position": place])
                    case (nil, nil): nil
                    }
                next = [
                    Next(
                        value: Shelf.reading.rawValue,
                        label: tracksPages ? localized("Pick it up again") : localized("Back to watching"),
                        primary: true)
                ]
                readAgainPath = nil
                showsProgress = tracksPages
            }
        }
    }

    /// The description's first lines, and the rest behind "More".
    struct DescriptionLead: Sendable {
        /// About three lines on a phone.
        static let leadLength = 280

        let lead: String
        let rest: [String]
        let hasRest: Bool

        init?(_ paragraphs: [String]) {
            guard let first = paragraphs.first else { return nil }
            var rest = Array(paragraphs.dropFirst())
            if first.count > Self.leadLength + 40 {
                // Cut at a space, so the lead ends on a whole word, and the rest goes on from it.
                let prefix = first.prefix(Self.leadLength)
                let cut = prefix.lastIndex(of: " ") ?? prefix.endIndex
                lead = String(first[..<cut]) + "…"
                rest.insert("…" + first[cut...].trimmingCharacters(in: .whitespaces), at: 0)
            } else {
                lead = first
            }
            self.rest = rest
            hasRest = !rest.isEmpty
        }
    }

    /// Opens the disclosure the last saved form lives in (`saved=` in the returned-to link), so the person sees
    /// what they just saved.
    mutating func open(afterSaving saved: String?) {
        switch saved {
        case "review": reviewOpen = true
        case "dates": datesOpen = true
        case "copy", "lent", "returned": copyOpen = true
        case "watched-again", "episode-watched", "episodes-up-to", "season-watched", "show-caught-up", "together-told":
            together?.open = true
        default: break
        }
    }
}
