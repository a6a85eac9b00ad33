import Foundation
import Hummingbird
import Mustache

/// `/film-night?with=2&with=3&kind=movie&until=23:00`: pick who is on the sofa; the films and shows all of them want to
/// watch, owned copies first, with how long each runs, and only those that end in time when an hour is given.
struct FilmNightController: Sendable {
    let filmNight: FilmNight
    let sharing: HouseholdSharing
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.filmNight.routerPath, use: show)
    }

    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let chosen = query.all("with").prefix(FilmNight.maxPeople).compactMap { BoundedNumber.id($0) }
        let kind = query["kind"].flatMap(TitleKind.init(rawValue:)).flatMap { $0 == .book ? nil : $0 }
        let until = query.trimmed("until").flatMap(Self.minutesOfDay)
        let fitsIn = until.map { Self.minutes(from: clock.now(), until: $0, in: clock.timeZone) }
        let members = try await sharing.visibleMembers(for: context.userID).filter {
            $0.id != context.userID && $0.shares
        }
        let evening = try await filmNight.evening(
            for: context.userID, with: chosen.filter { id in members.contains { $0.id == id } }, kind: kind,
            fitsIn: fitsIn)
        let page = FilmNightPage(
            context: context, members: members, chosen: Set(chosen), kind: kind,
            until: until.flatMap { _ in query.trimmed("until") }, fitsIn: fitsIn, evening: evening,
            untilWasUnreadable: query.trimmed("until") != nil && until == nil)
        return try renderer.render(page, template: "household/film-night")
    }

    /// `23:00` as minutes after midnight; nil for anything but a time of day.
    static func minutesOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 2, parts[1].utf8.count == 2,
            let hours = BoundedNumber.parse(parts[0], in: 0...23),
            let minutes = BoundedNumber.parse(parts[1], in: 0...59)
        else { return nil }
        return hours * 60 + minutes
    }

    /// The minutes from `now` to the next `until` o'clock in the household's time zone (past midnight when it is
    /// already later than that today).
    static func minutes(from now: Date, until: Int, in timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        let current = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return (until - current + 1_440) % 1_440
    }
}

/// `household/film-night`.
struct FilmNightPage: Sendable {
    struct Person: Sendable {
        let id: Int64
        let name: String
        let checked: Bool
    }

    struct Choice: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    struct Title: Sendable {
        let title: String
        let facts: String
        let coverURL: String
        let path: String
        let owned: Bool
        let atHome: Bool
    }

    let chrome: PageChrome
    let people: [Person]
    let hasMembers: Bool
    let kinds: [Choice]
    let untilValue: String
    let untilError: String?
    let titles: [Title]
    let summary: String
    let leftOut: String?
    let isEmpty: Bool
    /// A sofa chooses from a screenful, not from a whole watchlist of 500.
    static let shown = 40

    init(
        context: SignedInContext, members: [HouseholdSharing.VisibleMember], chosen: Set<Int64>, kind: TitleKind?,
        until: String?, fitsIn: Int?, evening: FilmNight.Evening, untilWasUnreadable: Bool
    ) {
        chrome = PageChrome(title: localized("Film night"), context: context, tab: .shelves)
        people = members.map { Person(id: $0.id, name: $0.displayName, checked: chosen.contains($0.id)) }
        hasMembers = !members.isEmpty
        let kindLabels: [(TitleKind?, String)] = [
            (nil, localized("All")), (.movie, localized("Films")), (.show, localized("TV shows")),
        ]
        kinds = kindLabels.map { value, label in
            Choice(value: value?.rawValue ?? "", label: label, selected: value == kind)
        }
        untilValue = until ?? ""
        untilError =
            untilWasUnreadable
            ? localized("Type the time it should end by as hours and minutes, such as 23:00.") : nil
        titles = evening.candidates.prefix(Self.shown).map { candidate in
            let runtime = candidate.runtimeMinutes.map {
                candidate.kind == .show
                    ? localized("{{time}} an episode", ["time": BookPage.runningTime($0)]) : BookPage.runningTime($0)
            }
            let facts = [
                candidate.kind == .movie ? localized("Film") : localized("TV show"), candidate.year,
                runtime ?? localized("Running time unknown"),
            ]
            .compactMap { $0 }.joined(separator: " · ")
            return Title(
                title: candidate.title, facts: facts, coverURL: BookCover.url(for: candidate.coverPath),
                path: Paths.book(candidate.bookID), owned: candidate.ownedInHouse, atHome: candidate.atHome)
        }
        let count = evening.candidates.count
        summary = Self.summary(count: count, kind: kind, others: evening.people, fitsIn: fitsIn)
        var notes: [String] = []
        if evening.tooLong > 0 {
            notes.append(
                localized(
                    one: "{{count}} more run longer than that", other: "{{count}} more run longer than that",
                    count: evening.tooLong))
        }
        if evening.unknownRuntime > 0 {
            notes.append(
                localized(
                    one: "{{count}} have no running time yet, so Shelfed cannot say they fit",
                    other: "{{count}} have no running time yet, so Shelfed cannot say they fit",
                    count: evening.unknownRuntime))
        }
        if count > Self.shown {
            notes.insert(
                localized(
                    "The first {{count}} are shown: choose an hour to end by, or films or shows only",
                    ["count": String(Self.shown)]), at: 0)
        }
        leftOut = notes.isEmpty ? nil : notes.joined(separator: "; ") + "."
        isEmpty = titles.isEmpty
    }

    /// "3 films on the Want to watch of you and Sam that end in time (2 h from now).", told whole in the request's
    /// language: the noun, who and whether a time was given each change the sentence.
    static func summary(count: Int, kind: TitleKind?, others: [String], fitsIn: Int?) -> String {
        let values: KeyValuePairs<String, String> = [
            "who": spoken(others), "time": fitsIn.map { BookPage.runningTime(max($0, 1)) } ?? "",
        ]
        let noun = kind.map { $0 == .movie ? 1 : 2 } ?? 0
        switch (noun, others.isEmpty, fitsIn != nil) {
        case (0, true, false):
            return localized(
                one: "{{count}} title on the Want to watch of you.",
                other: "{{count}} titles on the Want to watch of you.", count: count, values)
        case (0, true, true):
            return localized(
                one: "{{count}} title on the Want to watch of you that end in time ({{time}} from now).",
                other: "{{count}} titles on the Want to watch of you that end in time ({{time}} from now).",
                count: count, values)
        case (0, false, false):
            return localized(
                one: "{{count}} title on the Want to watch of {{who}}.",
                other: "{{count}} titles on the Want to watch of {{who}}.", count: count, values)
        case (0, false, true):
            return localized(
                one: "{{count}} title on the Want to watch of {{who}} that end in time ({{time}} from now).",
                other: "{{count}} titles on the Want to watch of {{who}} that end in time ({{time}} from now).",
                count: count, values)
        case (1, true, false):
            return localized(
                one: "{{count}} film on the Want to watch of you.",
                other: "{{count}} films on the Want to watch of you.", count: count, values)
        case (1, true, true):
            return localized(
                one: "{{count}} film on the Want to watch of you that end in time ({{time}} from now).",
                other: "{{count}} films on the Want to watch of you that end in time ({{time}} from now).",
                count: count, values)
        case (1, false, false):
            return localized(
                one: "{{count}} film on the Want to watch of {{who}}.",
                other: "{{count}} films on the Want to watch of {{who}}.", count: count, values)
        case (1, false, true):
            return localized(
                one: "{{count}} film on the Want to watch of {{who}} that end in time ({{time}} from now).",
                other: "{{count}} films on the Want to watch of {{who}} that end in time ({{time}} from now).",
                count: count, values)
        case (_, true, false):
            return localized(
                one: "{{count}} TV show on the Want to watch of you.",
                other: "{{count}} TV shows on the Want to watch of you.", count: count, values)
        case (_, true, true):
            return localized(
                one: "{{count}} TV show on the Want to watch of you that end in time ({{time}} from now).",
                other: "{{count}} TV shows on the Want to watch of you that end in time ({{time}} from now).",
                count: count, values)
        case (_, false, false):
            return localized(
                one: "{{count}} TV show on the Want to watch of {{who}}.",
                other: "{{count}} TV shows on the Want to watch of {{who}}.", count: count, values)
        case (_, false, true):
            return localized(
                one: "{{count}} TV show on the Want to watch of {{who}} that end in time ({{time}} from now).",
                other: "{{count}} TV shows on the Want to watch of {{who}} that end in time ({{time}} from now).",
                count: count, values)
        }
    }

    /// "you and Sam", "you, Sam and Robin": the viewer and the others on the sofa; empty for the viewer alone.
    static func spoken(_ others: [String]) -> String {
        guard let last = others.last else { return "" }
        if others.count == 1 { return localized("you and {{name}}", ["name": last]) }
        return localized(
            "you, {{names}} and {{name}}", ["names": others.dropLast().joined(separator: ", "), "name": last])
    }
}

// Answered field by field, as the house library is: through a Mirror per lookup, rendering was most of the page's CPU
// (`benchmarks/film_night.py`).
extension FilmNightPage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "chrome": self.chrome
        case "people": self.people
        case "hasMembers": self.hasMembers
        case "kinds": self.kinds
        case "untilValue": self.untilValue
        case "untilError": self.untilError
        case "titles": self.titles
        case "summary": self.summary
        case "leftOut": self.leftOut
        case "isEmpty": self.isEmpty
        default: nil
        }
    }
}

extension FilmNightPage.Person: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": self.id
        case "name": self.name
        case "checked": self.checked
        default: nil
        }
    }
}

extension FilmNightPage.Choice: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "value": self.value
        case "label": self.label
        case "selected": self.selected
        default: nil
        }
    }
}

extension FilmNightPage.Title: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": self.title
        case "facts": self.facts
        case "coverURL": self.coverURL
        case "path": self.path
        case "owned": self.owned
        case "atHome": self.atHome
        default: nil
        }
    }
}
