import Foundation
import Hummingbird
import Mustache

/// "Watched it with someone?" on a film's or show's page, and the recipient's answer from For you (issue 38).
struct WatchedTogetherController: Sendable {
    let together: WatchedTogetherStore
    let pages: BookPageBuilder
    var clock: AppClock { pages.clock }

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.bookTogether.routerPath, use: tell)
        router.post(Route.togetherAnswer.routerPath, use: answer)
    }

    /// POST /books/:id/together (`member`, one or more; `day`, one of the page's viewing days)
    @Sendable func tell(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await pages.requireEntry(context)
        let bookID = entry.bookID
        var request = request
        let form = try await request.formFields()
        let members = form.all("member").prefix(50).compactMap { BoundedNumber.id($0) }
        let day = form.trimmed("day").flatMap { CalendarDate.isValidDay($0) ? $0 : nil }
        do {
            guard !members.isEmpty else {
                return try await refused(entry, localized("Tick who you watched it with."), context)
            }
            guard let day else { throw WatchedTogetherStore.Refusal.noViewing }
            try await together.offer(bookID: bookID, day: day, from: context.userID, to: members, now: clock.now())
        } catch WatchedTogetherStore.Refusal.noViewing {
            return try await refused(
                entry, localized("You watched nothing of it on that day. Mark it watched first, then tell them."),
                context)
        } catch WatchedTogetherStore.Refusal.notAMember {
            throw AppError.notFound(localized("There is no such member of the household."))
        }
        return .seeOther(
            ActionNotice.link(Paths.book(bookID), adding: [("saved", "together-told")], anchor: "together"))
    }

    /// The page again, its "Watched it with someone?" open with `message`, as 422.
    private func refused(_ entry: LibraryEntry, _ message: String, _ context: SignedInContext) async throws -> Response
    {
        var page = try await pages.page(entry, context: context)
        page.together?.error = message
        page.together?.open = true
        return try pages.refused(page)
    }

    /// POST /together/:offerID (`answer` = yes | no; optional `return_to`)
    @Sendable func answer(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let form = try await request.formFields()
        let back = safeRelativePath(form.trimmed("return_to"))
        guard let id = BoundedNumber.id(context.parameters.get("offerID")) else { throw Self.noSuchOffer }
        switch form["answer"] {
        case "yes":
            guard let accepted = try await together.accept(id, recipient: context.userID, now: clock.now()) else {
                throw Self.noSuchOffer
            }
            return .seeOther(
                ActionNotice.link(Paths.book(accepted.bookID), adding: [("saved", "together-added")]))
        case "no":
            guard try await together.decline(id, recipient: context.userID, now: clock.now()) else {
                throw Self.noSuchOffer
            }
            return .seeOther(ActionNotice.link(back ?? Paths.forYou, adding: [("saved", "together-declined")]))
        default:
            throw HTTPError(.badRequest, message: localized("Answer with “Add it to mine” or “Not me”."))
        }
    }

    /// Computed: its words are in the request's language.
    static var noSuchOffer: AppError {
        AppError.notFound(localized("There is no such viewing waiting for you. It may have been answered."))
    }
}

extension BookPage {
    /// "Watched it with someone?": the person's viewing days of a film or show, the others in the house to tell, and
    /// who was told (or told them) already.
    struct TogetherSection: Sendable {
        struct Day: Sendable {
            let value: String
            let label: String
        }

        /// Anyone in the house but the person, as "Recommend it" offers them.
        typealias Member = RecommendSection.Member

        let formPath: String
        let days: [Day]
        let members: [Member]
        let told: [String]
        /// Open after a film or episodes were just marked watched, and after telling.
        var open = false
        var error: String?

        init?(
            bookID: Int64, days: [String], members: [(id: Int64, name: String)],
            told: [WatchedTogetherStore.Told], today: String
        ) {
            guard !members.isEmpty, !days.isEmpty || !told.isEmpty else { return nil }
            formPath = Paths.bookTogether(bookID)
            self.days = days.map { Day(value: $0, label: HumanDay.text($0, today: today)) }
            self.members = members.map { Member(id: $0.id, name: $0.name) }
            self.told = told.map { told in
                let day = HumanDay.text(told.day, today: today)
                let values: KeyValuePairs<String, String> = ["name": told.member, "day": day]
                if told.received { return localized("With {{name}}, {{day}}.", values) }
                return switch told.answer {
                case nil: localized("With {{name}}, {{day}}: waiting for their answer.", values)
                case true?: localized("With {{name}}, {{day}}: on their shelf too.", values)
                case false?: localized("With {{name}}, {{day}}: they said it was not them.", values)
                }
            }
        }
    }
}

extension BookPage.TogetherSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "formPath": self.formPath
        case "days": self.days
        case "members": self.members
        case "told": self.told
        case "open": self.open
        case "error": self.error
        case "hasDays": !self.days.isEmpty
        default: nil
        }
    }
}

extension BookPage.TogetherSection.Day: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "value": self.value
        case "label": self.label
        default: nil
        }
    }
}
