/// Where in a film or show a photo belongs, as a book photo has its page (issue 37): a time into the film
/// ("1:02:15"), an episode ("S2E3"), or both ("S2E3 12:04").
///
/// Typed text is hostile (DESIGN §13): only ASCII digits are read, every number within bounds before any
/// arithmetic, and the whole text is at most `maxLength` bytes, so nothing here can trap or loop long.
struct PhotoMoment: Sendable, Equatable {
    var season: Int?
    var episode: Int?
    var seconds: Int?

    static let maxLength = 24
    /// A time into a title: up to 99:59:59 (the longest films run under ten hours; the bound is the format's).
    static let secondsRange = 0...359_999

    /// The text the forms show back and the API answers: "S2E3 12:04", "1:02:15".
    var text: String {
        [episodeText, seconds.map(Self.clock)].compactMap { $0 }.joined(separator: " ")
    }

    /// The label under a photo: "S2E3 · 12:04".
    var label: String {
        [episodeText, seconds.map(Self.clock)].compactMap { $0 }.joined(separator: " · ")
    }

    private var episodeText: String? {
        guard let season, let episode else { return nil }
        return "S\(season)E\(episode)"
    }

    /// "1:02:15", "12:04", "0:45".
    static func clock(_ seconds: Int) -> String {
        let (hours, rest) = seconds.quotientAndRemainder(dividingBy: 3_600)
        let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }

    /// The stored columns back as a moment; nil when the photo has none.
    init?(season: Int?, episode: Int?, seconds: Int?) {
        guard (season != nil && episode != nil) || seconds != nil else { return nil }
        self.season = season
        self.episode = episode
        self.seconds = seconds
    }

    private init() {}

    /// Why typed text is not a moment, in words for the form.
    struct Refusal: Error, Equatable {
        let message: String
    }

    /// What `text` names for a title of `kind`: a time for a film; an episode, a time, or both for a show. Nil with
    /// a message saying what to type when it is neither.
    static func parse(_ text: String, for kind: TitleKind) -> Result<PhotoMoment, Refusal> {
        let refusal = Refusal(
            message: kind == .show
                ? localized("Type the episode like S2E3, or S2E3 12:04 for a moment in it.")
                : localized("Type the time like 1:02:15 or 48:30."))
        guard kind != .book, text.utf8.count <= maxLength else { return .failure(refusal) }
        var moment = PhotoMoment()
        for word in text.split(whereSeparator: { $0 == " " || $0 == "·" || $0 == "," }) {
            if kind == .show, moment.season == nil, let (season, episode) = Self.episode(word) {
                moment.season = season
                moment.episode = episode
            } else if moment.seconds == nil, let seconds = Self.seconds(word) {
                moment.seconds = seconds
            } else {
                return .failure(refusal)
            }
        }
        guard moment.season != nil || moment.seconds != nil else { return .failure(refusal) }
        return .success(moment)
    }

    /// "S2E3", "s02e03", "2x03": a season (0 for specials) and an episode within `ScreenLimits`.
    private static func episode(_ word: Substring) -> (Int, Int)? {
        let upper = word.uppercased()
        let parts: [Substring]
        if upper.hasPrefix("S"), let e = upper.firstIndex(of: "E") {
            parts = [upper[upper.index(after: upper.startIndex)..<e], upper[upper.index(after: e)...]]
        } else {
            parts = upper.split(separator: "X", omittingEmptySubsequences: false)
        }
        guard parts.count == 2,
            let season = BoundedNumber.parse(parts[0], in: ScreenLimits.seasonNumbers),
            let episode = BoundedNumber.parse(parts[1], in: ScreenLimits.episodeNumbers)
        else { return nil }
        return (season, episode)
    }

    /// "1:02:15", "62:15", "48:30": minutes and seconds under 60 after the first part, within `secondsRange`.
    private static func seconds(_ word: Substring) -> Int? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.dropFirst().allSatisfy({ $0.utf8.count == 2 }),
            let first = BoundedNumber.parse(parts[0], in: 0...5_999)
        else { return nil }
        var total = first
        for part in parts.dropFirst() {
            guard let value = BoundedNumber.parse(part, in: 0...59) else { return nil }
            total = total * 60 + value
        }
        return secondsRange.contains(total) ? total : nil
    }
}

/// What a photo's place is checked against: a book's page count, a film's running time, a show's seasons.
struct PhotoTarget: Sendable {
    var kind: TitleKind = .book
    var pageCount: Int?
    var runtimeMinutes: Int?
    /// A show's last episode number in each season it has stored; empty when its episodes are not known (or not
    /// read: the pages read them only to check a typed episode, `PhotoStore.target(of:)`).
    var lastEpisodes: [Int: Int] = [:]

    /// A profile picture (no title) takes neither a page nor a moment.
    init(kind: TitleKind = .book, pageCount: Int? = nil, runtimeMinutes: Int? = nil) {
        self.kind = kind
        self.pageCount = pageCount
        self.runtimeMinutes = runtimeMinutes
    }

    init(_ book: Book?) {
        self.init(kind: book?.kind ?? .book, pageCount: book?.pageCount, runtimeMinutes: book?.runtimeMinutes)
    }

    /// Why `moment` cannot belong to this title, or nil when it can.
    func problem(with moment: PhotoMoment) -> String? {
        if let season = moment.season, let episode = moment.episode, !lastEpisodes.isEmpty {
            guard let last = lastEpisodes[season] else {
                let seasons = lastEpisodes.keys.filter { $0 > 0 }.sorted()
                guard let first = seasons.first, let final = seasons.last else {
                    return localized("This show has no season {{season}}.", ["season": String(season)])
                }
                return localized(
                    "This show has no season {{season}} (seasons {{first}} to {{last}}).",
                    ["season": String(season), "first": String(first), "last": String(final)])
            }
            if episode > last {
                return localized(
                    one: "Season {{season}} has {{count}} episode; type one from 1 to {{count}}.",
                    other: "Season {{season}} has {{count}} episodes; type one from 1 to {{count}}.", count: last,
                    ["season": String(season)])
            }
        }
        // A film's time is checked against its running time with a few minutes' grace for credits and rounding.
        if kind == .movie, let seconds = moment.seconds, let runtimeMinutes, seconds > (runtimeMinutes + 10) * 60 {
            return localized(
                "This film runs {{length}}; type a time within it.", ["length": BookPage.runningTime(runtimeMinutes)])
        }
        return nil
    }
}

/// Where a photo belongs in its title: a page of a book, or a moment of a film or show.
struct PhotoPlace: Sendable, Equatable {
    var page: Int?
    var moment: PhotoMoment?
}
