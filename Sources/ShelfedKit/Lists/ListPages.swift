/// `library/lists`: the person's lists as cover mosaics, and the form to make one.
struct ListIndexPage: Sendable {
    struct Item: Sendable {
        let name: String
        let description: String?
        let path: String
        let counts: String
        let coverURLs: [String]
    }

    let chrome: PageChrome
    let lists: [Item]
    let createPath = Paths.lists
    let nameValue: String
    let descriptionValue: String
    let nameError: String?
    let descriptionError: String?
    let maxName = ReadingListStore.maxNameLength
    let maxDescription = ReadingListStore.maxDescriptionLength

    init(chrome: PageChrome, lists: [ReadingList], typed: ListForm, errors: FieldErrors) {
        self.chrome = chrome
        self.lists = lists.map { list in
            Item(
                name: list.name, description: list.description, path: Paths.list(list.id),
                counts: localized(one: "{{count}} book", other: "{{count}} books", count: list.bookCount),
                coverURLs: list.coverPaths.map { BookCover.url(for: $0) })
        }
        nameValue = typed.name
        descriptionValue = typed.description
        nameError = errors["name"]
        descriptionError = errors["description"]
    }
}

/// `library/list-show`: one list in its order, filterable, with move up/down and remove on each book.
struct ListPage: Sendable {
    struct Item: Sendable {
        let bookID: Int64
        let position: Int
        let title: String
        let authors: String?
        let path: String
        let coverURL: String
        let hasCover: Bool
        let shelfTitle: String
        let movePath: String
        let removePath: String
        let isFirst: Bool
        let isLast: Bool
    }

    let chrome: PageChrome
    let name: String
    let description: String?
    let editPath: String
    let deletePath: String
    let summary: String
    let bookCount: Int
    let items: [Item]
    let hasItems: Bool
    /// Reordering is offered on the whole list only: among filtered books, "up" would be ambiguous.
    let canReorder: Bool
    let filtered: Bool
    let filterPanel: HTMLFragment
    let pagination: HTMLFragment
    let returnTo: String
    /// "Share with the household".
    var sharing: ShareSwitch? = nil

    init(
        chrome: PageChrome, list: ReadingList, items: [ReadingListItem], total: Int, pageNumber: Int,
        filters: LibraryFilters
    ) {
        self.chrome = chrome
        name = list.name
        description = list.description
        editPath = Paths.listEdit(list.id)
        deletePath = Paths.listDelete(list.id)
        let path = Paths.list(list.id)
        filtered = !filters.isEmpty
        bookCount = list.bookCount
        canReorder = !filtered && list.bookCount > 1
        summary =
            filtered
            ? localized(
                one: "{{matching}} of {{count}} book match", other: "{{matching}} of {{count}} books match",
                count: list.bookCount, ["matching": total.grouped])
            : localized(one: "{{count}} book", other: "{{count}} books", count: list.bookCount)
        self.items = items.map { entry in
            let item = entry.item
            return Item(
                bookID: item.bookID, position: entry.position, title: item.title,
                authors: item.authors.isEmpty ? nil : item.authors, path: Paths.book(item.bookID),
                coverURL: BookCover.url(for: item.coverPath), hasCover: item.coverPath != nil,
                shelfTitle: item.shelf.title, movePath: Paths.listBookMove(list.id, item.bookID),
                removePath: Paths.listBookRemove(list.id, item.bookID), isFirst: entry.position == 1,
                isLast: entry.position == list.bookCount)
        }
        hasItems = !items.isEmpty
        filterPanel = ShelfListPage.filterPanel(listPath: path, sort: LibrarySort(), filters: filters)
        pagination =
            Pagination(
                path: path, query: filters.query, current: pageNumber, total: total, pageSize: LibraryStore.pageSize
            ).html
        // Back to this page as the list understood it, not the address as typed (see ShelfListPage).
        returnTo = Pagination.link(path, query: filters.query, page: pageNumber)
    }
}

/// `library/list-edit`: a list's name and description.
struct ListEditPage: Sendable {
    let chrome: PageChrome
    let listName: String
    let listPath: String
    let savePath: String
    let deletePath: String
    let nameValue: String
    let descriptionValue: String
    let nameError: String?
    let descriptionError: String?
    let maxName = ReadingListStore.maxNameLength
    let maxDescription = ReadingListStore.maxDescriptionLength

    init(context: some PageContext, list: ReadingList, typed: ListForm? = nil, errors: FieldErrors = .init()) {
        chrome = PageChrome(
            title: localized("Edit the list “{{name}}”", ["name": list.name]), context: context, tab: .shelves)
        listName = list.name
        listPath = Paths.list(list.id)
        savePath = Paths.listEdit(list.id)
        deletePath = Paths.listDelete(list.id)
        nameValue = typed?.name ?? list.name
        descriptionValue = typed?.description ?? list.description ?? ""
        nameError = errors["name"]
        descriptionError = errors["description"]
    }
}

/// `library/list-delete`: asks before deleting a list.
struct ListDeletePage: Sendable {
    let chrome: PageChrome
    let name: String
    let summary: String
    let deletePath: String
    let keepPath: String
}

/// `library/book-lists`: which lists hold a book, as checkboxes, and a new list's name.
struct BookListsPage: Sendable {
    struct Choice: Sendable {
        let id: Int64
        let name: String
        let checked: Bool
        let counts: String
    }

    let chrome: PageChrome
    let bookTitle: String
    let bookPath: String
    let savePath: String
    let returnTo: String?
    let choices: [Choice]
    let hasLists: Bool
    let newNameValue: String
    let newNameError: String?
    let maxName = ReadingListStore.maxNameLength

    init(
        context: some PageContext, entry: LibraryEntry, membership: [(list: ReadingList, contains: Bool)],
        returnTo: String?, chosen: Set<Int64>? = nil, newName: String = "", error: String? = nil
    ) {
        chrome = PageChrome(
            title: localized("Lists for {{title}}", ["title": entry.book.title]), context: context, tab: .shelves)
        bookTitle = entry.book.title
        bookPath = Paths.book(entry.bookID)
        savePath = Paths.bookLists(entry.bookID)
        self.returnTo = returnTo
        choices = membership.map { list, contains in
            Choice(
                id: list.id, name: list.name, checked: chosen.map { $0.contains(list.id) } ?? contains,
                counts: localized(one: "{{count}} book", other: "{{count}} books", count: list.bookCount))
        }
        hasLists = !choices.isEmpty
        newNameValue = newName
        newNameError = error
    }
}

extension BookPage {
    /// "Lists": the lists holding the book, and the way to change them.
    struct ListsSection: Sendable {
        struct Item: Sendable {
            let name: String
            let path: String
        }

        let lists: [Item]
        let hasLists: Bool
        let choosePath: String

        init(bookID: Int64, membership: [(list: ReadingList, contains: Bool)]) {
            lists = membership.filter(\.contains).map { Item(name: $0.list.name, path: Paths.list($0.list.id)) }
            hasLists = !lists.isEmpty
            choosePath = Paths.bookLists(bookID)
        }
    }
}
