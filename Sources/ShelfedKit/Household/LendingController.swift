import Foundation
import Hummingbird

/// Lending and the house library on the web (issue 25): lend your copy to a member who shares or to anyone by name,
/// mark it returned, and `/house` — every owned copy in the house, whose, where, and whether it is out.
struct LendingController: Sendable {
    let pages: BookPageBuilder
    let loans: LoanStore
    let sharing: HouseholdSharing
    var library: LibraryStore { pages.library }
    var clock: AppClock { pages.clock }

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.post(Route.bookLend.routerPath, use: lend)
        router.post(Route.bookReturned.routerPath, use: returned)
        router.get(Route.house.routerPath, use: house)
    }

    /// POST /books/:id/lend (`member` id, or `name`; `lent_on`, optional `due_on`)
    @Sendable func lend(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        var request = request
        let form = try await request.formFields()
        let typed = BookPage.LoanSection.Typed(
            member: form["member"] ?? "", name: form.trimmed("name") ?? "", lentOn: form.trimmed("lent_on") ?? "",
            dueOn: form.trimmed("due_on") ?? "")
        let today = clock.today()
        var errors = FieldErrors()
        switch LoanForm(member: typed.member, name: typed.name, lentOn: typed.lentOn, dueOn: typed.dueOn)
            .validated(today: today)
        {
        case .failure(let problems): errors = problems
        case .success(let loan):
            do {
                try await loans.lend(
                    bookID: entry.bookID, userID: context.userID, toMember: loan.memberID, name: loan.name,
                    lentOn: loan.lentOn, dueOn: loan.dueOn)
                return .seeOther(
                    ActionNotice.link(Paths.book(entry.bookID), adding: [("saved", "lent")], anchor: "copy-heading"))
            } catch LoanStore.Refusal.alreadyOnLoan {
                errors["name"] = localized("This copy is on loan already. Mark it returned first.")
            } catch LoanStore.Refusal.notYours {
                errors["name"] = localized(
                    "Choose someone from the list: that member no longer shares with the household.")
            }
        }
        var page = try await pages.page(entry, context: context)
        page.loan = BookPage.LoanSection(
            entry, loan: nil, borrowers: try await loans.borrowers(for: context.userID), today: today, typed: typed,
            errors: errors)
        page.copyOpen = true
        return try pages.refused(page)
    }

    /// POST /books/:id/returned
    @Sendable func returned(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        guard try await loans.returned(bookID: entry.bookID, userID: context.userID, on: clock.today()) else {
            return .seeOther(Paths.book(entry.bookID) + "#copy-heading")
        }
        return .seeOther(
            ActionNotice.link(Paths.book(entry.bookID), adding: [("saved", "returned")], anchor: "copy-heading"))
    }

    /// GET /house[?owner=&genre=&available=1&page=]
    @Sendable func house(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        var filters = LoanStore.HouseFilters()
        filters.ownerID = query["owner"].flatMap { BoundedNumber.id($0) }
        filters.genre = query.trimmed("genre").flatMap {
            $0.count <= LibraryFilters.maxTextLength && !NewBookForm.hasControlCharacters($0) ? $0 : nil
        }
        filters.availableOnly = query["available"] == "1"
        let page = query["page"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.listPage) } ?? 1
        let (copies, total) = try await loans.houseLibrary(for: context.userID, filters: filters, page: page)
        let members = try await sharing.visibleMembers(for: context.userID)
        return try pages.renderer.render(
            HouseLibraryPage(
                context: context, copies: copies, total: total, page: page, filters: filters,
                owners: members.map { ($0.id, $0.displayName) }),
            template: "household/house")
    }
}
