import Foundation

/// A member offered in a select (who borrows a copy; whose copies the house library shows), chosen or not.
struct MemberChoice: Sendable {
    let id: Int64
    let name: String
    let selected: Bool
}

extension BookPage {
    /// Lending the person's copy: on loan to whom since when (with "Returned"), or the form to lend it.
    struct LoanSection: Sendable {
        struct Typed: Sendable {
            var member = ""
            var name = ""
            var lentOn = ""
            var dueOn = ""
        }

        typealias Borrower = MemberChoice

        let onLoan: String?
        let isOverdue: Bool
        let lendPath: String
        let returnedPath: String
        let borrowers: [Borrower]
        let hasBorrowers: Bool
        let nameValue: String
        let lentOnValue: String
        let dueOnValue: String
        let nameError: String?
        let lentOnError: String?
        let dueOnError: String?

        init(
            _ entry: LibraryEntry, loan: LoanStore.Loan?, borrowers: [(id: Int64, name: String)], today: String,
            typed: Typed? = nil, errors: FieldErrors = .init()
        ) {
            let bookID = entry.bookID
            lendPath = Paths.bookLend(bookID)
            returnedPath = Paths.bookReturned(bookID)
            if let loan {
                onLoan =
                    loan.dueOn.map {
                        localized(
                            "On loan to {{name}} since {{day}}, due back {{due}}.",
                            ["name": loan.borrowerName, "day": loan.lentOn, "due": $0])
                    }
                    ?? localized("On loan to {{name}} since {{day}}.", ["name": loan.borrowerName, "day": loan.lentOn])
                isOverdue = loan.dueOn.map { $0 < today } ?? false
            } else {
                onLoan = nil
                isOverdue = false
            }
            self.borrowers = borrowers.map {
                Borrower(id: $0.id, name: $0.name, selected: typed?.member == String($0.id))
            }
            hasBorrowers = !borrowers.isEmpty
            nameValue = typed?.name ?? ""
            lentOnValue = typed.map { $0.lentOn.isEmpty ? today : $0.lentOn } ?? today
            dueOnValue = typed?.dueOn ?? ""
            nameError = errors["name"]
            lentOnError = errors["lent_on"]
            dueOnError = errors["due_on"]
        }
    }
}

/// `household/house`: every owned copy in the house (the viewer's and those of members who share).
struct HouseLibraryPage: Sendable {
    struct Copy: Sendable {
        let title: String
        let authors: String?
        let coverURL: String
        let owner: String
        let location: String?
        let status: String
        let available: Bool
        let path: String?
    }

    typealias Owner = MemberChoice

    let chrome: PageChrome
    let copies: [Copy]
    let summary: String
    let isEmpty: Bool
    let owners: [Owner]
    let genreValue: String
    let availableOnly: Bool
    let isFiltered: Bool
    let pagination: HTMLFragment

    init(
        context: SignedInContext, copies: [LoanStore.HouseCopy], total: Int, page: Int,
        filters: LoanStore.HouseFilters, owners: [(Int64, String)]
    ) {
        chrome = PageChrome(title: localized("The house library"), context: context, tab: .shelves)
        self.copies = copies.map { copy in
            Copy(
                title: copy.title, authors: copy.authors.isEmpty ? nil : copy.authors,
                coverURL: BookCover.url(for: copy.coverPath), owner: copy.owner, location: copy.location,
                status: copy.onLoanTo.map {
                    localized("On loan to {{name}} since {{day}}", ["name": $0, "day": copy.lentOn ?? ""])
                } ?? localized("On the shelf"),
                available: copy.onLoanTo == nil,
                path: copy.viewerBookID.map(Paths.book) ?? Paths.houseBook(copy.bookID))
        }
        summary = localized(one: "{{count}} copy", other: "{{count}} copies", count: total)
        isEmpty = copies.isEmpty
        self.owners = owners.map { Owner(id: $0.0, name: $0.1, selected: $0.0 == filters.ownerID) }
        genreValue = filters.genre ?? ""
        availableOnly = filters.availableOnly
        isFiltered = filters != LoanStore.HouseFilters()
        var query: [String: String] = [:]
        if let owner = filters.ownerID { query["owner"] = String(owner) }
        if let genre = filters.genre { query["genre"] = genre }
        if filters.availableOnly { query["available"] = "1" }
        pagination =
            Pagination(path: Paths.house, query: query, current: page, total: total, pageSize: LoanStore.housePageSize)
            .html
    }
}
