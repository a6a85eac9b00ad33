import Foundation
import Hummingbird

/// Lists on the web (issue 24): `/lists` to make and find them, a list's page in its own order (reordered with
/// move up/down, or by dragging where JavaScript runs), rename and describe, delete after asking, and a book put on
/// lists from its page or a shelf card. Every id is the signed-in person's own; anything else is a 404.
struct ListController: Sendable {
    let lists: ReadingListStore
    let library: LibraryStore
    let renderer: PageRenderer
    let clock: AppClock
    let sharing: HouseholdSharing

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.lists.routerPath, use: index)
        router.post(Route.lists.routerPath, use: create)
        router.get(Route.list.routerPath, use: show)
        router.get(Route.listEdit.routerPath, use: edit)
        router.post(Route.listEdit.routerPath, use: update)
        router.get(Route.listDelete.routerPath, use: confirmDelete)
        router.post(Route.listDelete.routerPath, use: delete)
        router.post(Route.listBooks.routerPath, use: addBook)
        router.post(Route.listBookRemove.routerPath, use: removeBook)
        router.post(Route.listBookMove.routerPath, use: moveBook)
        router.get(Route.bookLists.routerPath, use: chooseLists)
        router.post(Route.bookLists.routerPath, use: saveLists)
    }

    // MARK: - Lists

    /// GET /lists
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        try await indexPage(context: context, request: request)
    }

    /// POST /lists (`name`, `description`)
    @Sendable func create(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let typed = Self.typed(try await request.formFields())
        do {
            let (name, description) = try typed.validated().get()
            let id = try await lists.create(name: name, description: description, for: context.userID)
            return .seeOther(ActionNotice.link(Paths.list(id), adding: [("saved", "list-created")]))
        } catch let errors as FieldErrors {
            return try await indexPage(context: context, typed: typed, errors: errors).refused
        } catch let failure as ReadingListStore.Failure {
            return try await indexPage(context: context, typed: typed, errors: ListForm.errors(for: failure)).refused
        }
    }

    /// GET /lists/:listID[?page=&filters…]
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let list = try await requireList(context)
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let pageNumber = query["page"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.listPage) } ?? 1
        let filters = LibraryFilters(query: query)
        let (items, total) = try await lists.items(
            of: list.id, for: context.userID, page: pageNumber, narrowedBy: filters)
        var chrome = PageChrome(title: list.name, context: context, tab: .shelves)
        chrome.toast = try await ActionNotice.toast(
            for: request, context: context, library: library, today: clock.today())
        var page = ListPage(
            chrome: chrome, list: list, items: items, total: total, pageNumber: pageNumber, filters: filters)
        page.sharing = ShareSwitch(
            try await sharing.shareState(ofList: list.id, of: context.userID), formPath: Paths.listShare(list.id),
            housePath: Paths.houseList(list.id), noun: "list")
        return try renderer.render(page, template: "library/list-show")
    }

    /// GET /lists/:listID/edit
    @Sendable func edit(_ request: Request, context: SignedInContext) async throws -> HTML {
        let list = try await requireList(context)
        return try renderer.render(ListEditPage(context: context, list: list), template: "library/list-edit")
    }

    /// POST /lists/:listID/edit (`name`, `description`)
    @Sendable func update(_ request: Request, context: SignedInContext) async throws -> Response {
        let list = try await requireList(context)
        var request = request
        let typed = Self.typed(try await request.formFields())
        var errors: FieldErrors
        do {
            let (name, description) = try typed.validated().get()
            _ = try await lists.update(list.id, name: name, description: description, for: context.userID)
            return .seeOther(ActionNotice.link(Paths.list(list.id), adding: [("saved", "list")]))
        } catch let failure as FieldErrors {
            errors = failure
        } catch let failure as ReadingListStore.Failure {
            errors = ListForm.errors(for: failure)
        }
        let page = ListEditPage(context: context, list: list, typed: typed, errors: errors)
        return try renderer.render(page, template: "library/list-edit", status: .unprocessableContent).response
    }

    /// GET /lists/:listID/delete: asks first.
    @Sendable func confirmDelete(_ request: Request, context: SignedInContext) async throws -> HTML {
        let list = try await requireList(context)
        let summary =
            list.bookCount == 0
            ? localized("It has no books.")
            : localized(
                one: "Its {{count}} book stays in your library, on the same shelves; only the list and its order go.",
                other: "Its {{count}} books stay in your library, on the same shelves; only the list and its order go.",
                count: list.bookCount)
        let page = ListDeletePage(
            chrome: PageChrome(
                title: localized("Delete the list “{{name}}”?", ["name": list.name]), context: context,
                tab: .shelves),
            name: list.name, summary: summary, deletePath: Paths.listDelete(list.id), keepPath: Paths.list(list.id))
        return try renderer.render(page, template: "library/list-delete")
    }

    /// POST /lists/:listID/delete
    @Sendable func delete(_ request: Request, context: SignedInContext) async throws -> Response {
        let list = try await requireList(context)
        _ = try await lists.delete(list.id, for: context.userID)
        return .seeOther(ActionNotice.link(Paths.lists, adding: [("saved", "list-deleted")]))
    }

    // MARK: - Books on a list

    /// POST /lists/:listID/books (`book_id`, optional `return_to`)
    @Sendable func addBook(_ request: Request, context: SignedInContext) async throws -> Response {
        let list = try await requireList(context)
        var request = request
        let form = try await request.formFields()
        let entry = try await library.requireEntry(bookID: BoundedNumber.id(form["book_id"]), of: context.userID)
        _ = try await lists.add(bookID: entry.bookID, to: list.id, for: context.userID)
        let back = safeRelativePath(form.trimmed("return_to")) ?? Paths.book(entry.bookID)
        return .seeOther(ActionNotice.link(back, adding: [("saved", "list-added")], anchor: "lists-heading"))
    }

    /// POST /lists/:listID/books/:id/remove (optional `return_to`)
    @Sendable func removeBook(_ request: Request, context: SignedInContext) async throws -> Response {
        let list = try await requireList(context)
        let bookID = BoundedNumber.id(context.parameters.get("id"))
        guard let bookID, try await lists.remove(bookID: bookID, from: list.id, for: context.userID) else {
            throw AppError.notFound(localized("That book is not on this list. It may have been taken off already."))
        }
        var request = request
        let back = safeRelativePath(try await request.formFields().trimmed("return_to")) ?? Paths.list(list.id)
        return .seeOther(ActionNotice.link(back, adding: [("done", "list-removed"), ("book", String(bookID))]))
    }

    /// POST /lists/:listID/books/:id/move (`direction`: up or down, or `position`: the 1-based place to take).
    /// The drag script asks with `Accept: application/json` and gets 204; a form gets the list again, at the book.
    @Sendable func moveBook(_ request: Request, context: SignedInContext) async throws -> Response {
        let list = try await requireList(context)
        var request = request
        let form = try await request.formFields()
        let move: ReadingListStore.Move
        switch form["direction"] {
        case "up": move = .up
        case "down": move = .down
        default:
            guard let place = form["position"].flatMap({ BoundedNumber.parse($0, in: BoundedNumber.listPlace) })
            else {
                throw AppError.invalid(
                    localized(
                        "Say where the book goes: up, down, or a place from 1 to the number of books on the list."),
                    field: "position")
            }
            move = .to(place)
        }
        guard let bookID = BoundedNumber.id(context.parameters.get("id")),
            let place = try await lists.move(bookID: bookID, in: list.id, move, for: context.userID)
        else {
            throw AppError.notFound(localized("That book is not on this list. It may have been taken off already."))
        }
        if request.headers[.accept]?.contains("application/json") == true {
            return Response(status: .noContent)
        }
        let page = (place - 1) / LibraryStore.pageSize + 1
        let path = page == 1 ? Paths.list(list.id) : Paths.list(list.id) + "?page=\(page)"
        return .seeOther(path + "#item-\(bookID)")
    }

    // MARK: - A book's lists

    /// GET /books/:id/lists: every list, ticked where the book is on it, and a new list's name.
    @Sendable func chooseLists(_ request: Request, context: SignedInContext) async throws -> HTML {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        let membership = try await lists.membership(ofBook: entry.bookID, for: context.userID)
        let back = safeRelativePath(FormFields(urlEncoded: request.uri.query ?? "").trimmed("return_to"))
        return try renderer.render(
            BookListsPage(context: context, entry: entry, membership: membership, returnTo: back),
            template: "library/book-lists")
    }

    /// POST /books/:id/lists (`list` for each ticked list, optional `new_name` for a new list, `return_to`)
    @Sendable func saveLists(_ request: Request, context: SignedInContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        let bookID = entry.bookID
        var request = request
        let form = try await request.formFields()
        let back = safeRelativePath(form.trimmed("return_to"))
        var chosen = Set(form.all("list").compactMap { BoundedNumber.id($0) })
        let newName = form["new_name"] ?? ""
        if !newName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            do {
                let (name, _) = try ListForm(name: newName).validated().get()
                chosen.insert(try await lists.create(name: name, description: nil, for: context.userID))
            } catch {
                let errors =
                    (error as? FieldErrors) ?? (error as? ReadingListStore.Failure).map(ListForm.errors(for:))
                guard let errors else { throw error }
                let membership = try await lists.membership(ofBook: bookID, for: context.userID)
                let page = BookListsPage(
                    context: context, entry: entry, membership: membership, returnTo: back, chosen: chosen,
                    newName: newName, error: errors["name"])
                return try renderer.render(page, template: "library/book-lists", status: .unprocessableContent)
                    .response
            }
        }
        try await lists.setLists(chosen, forBook: bookID, userID: context.userID)
        return .seeOther(
            ActionNotice.link(
                back ?? Paths.book(bookID), adding: [("saved", "lists")], anchor: back == nil ? "lists-heading" : nil))
    }

    // MARK: - Helpers

    private func indexPage(
        context: SignedInContext, request: Request? = nil, typed: ListForm = .init(), errors: FieldErrors = .init()
    ) async throws -> HTML {
        var chrome = PageChrome(title: localized("Lists"), context: context, tab: .shelves)
        if let request {
            chrome.toast = try await ActionNotice.toast(
                for: request, context: context, library: library, today: clock.today())
        }
        let page = ListIndexPage(
            chrome: chrome, lists: try await lists.lists(of: context.userID), typed: typed, errors: errors)
        return try renderer.render(page, template: "library/lists")
    }

    private func requireList(_ context: SignedInContext) async throws -> ReadingList {
        try await lists.requireList(BoundedNumber.id(context.parameters.get("listID")), of: context.userID)
    }

    static func typed(_ form: FormFields) -> ListForm {
        ListForm(name: form["name"] ?? "", description: form["description"] ?? "")
    }
}

extension HTML {
    /// The page as a 422: the form was refused and is shown again with the person's text.
    fileprivate var refused: Response {
        var page = self
        page.status = .unprocessableContent
        return page.response
    }
}
