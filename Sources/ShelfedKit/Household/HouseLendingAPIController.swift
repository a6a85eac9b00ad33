import Foundation
import Hummingbird

/// The house library and lending for Shelfed's own clients (issue 25): the same stores and rules as `/house` and the
/// book page's lending form. Only copies of members who share, and the caller's own, are ever listed.
struct HouseLendingAPIController: Sendable {
    let loans: LoanStore
    let library: LibraryStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.householdLibrary.routerPath, use: houseLibrary)
        router.get(APIRoute.householdLoans.routerPath, use: listLoans)
        router.post(APIRoute.householdLoans.routerPath, use: lend)
        router.post(APIRoute.householdLoanReturned.routerPath, use: returned)
    }

    struct Copy: Encodable {
        let title: String
        let author: String
        let imageURL: String?
        let owner: String
        let ownerID: Int64
        let location: String?
        let onLoanTo: String?
        let lentOn: String?
        /// The caller's own book id, for their own copies.
        let bookID: Int64?

        enum CodingKeys: String, CodingKey {
            case title, author, owner, location
            case imageURL = "image_url"
            case ownerID = "owner_id"
            case onLoanTo = "on_loan_to"
            case lentOn = "lent_on"
            case bookID = "book_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(author, forKey: .author)
            try container.encode(imageURL, forKey: .imageURL)
            try container.encode(owner, forKey: .owner)
            try container.encode(ownerID, forKey: .ownerID)
            try container.encode(location, forKey: .location)
            try container.encode(onLoanTo, forKey: .onLoanTo)
            try container.encode(lentOn, forKey: .lentOn)
            try container.encode(bookID, forKey: .bookID)
        }
    }

    struct HouseLibrary: Encodable {
        let copies: [Copy]
        let page: Int
        let matchingCount: Int

        enum CodingKeys: String, CodingKey {
            case copies, page
            case matchingCount = "matching_count"
        }
    }

    struct LoanJSON: Encodable {
        let id: Int64
        let bookID: Int64
        let title: String
        let borrower: String
        let borrowerID: Int64?
        let lentOn: String
        let dueOn: String?
        let overdue: Bool

        enum CodingKeys: String, CodingKey {
            case id, title, borrower, overdue
            case bookID = "book_id"
            case borrowerID = "borrower_id"
            case lentOn = "lent_on"
            case dueOn = "due_on"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(bookID, forKey: .bookID)
            try container.encode(title, forKey: .title)
            try container.encode(borrower, forKey: .borrower)
            try container.encode(borrowerID, forKey: .borrowerID)
            try container.encode(lentOn, forKey: .lentOn)
            try container.encode(dueOn, forKey: .dueOn)
            try container.encode(overdue, forKey: .overdue)
        }
    }

    struct BorrowedJSON: Encodable {
        let title: String
        let lender: String
        let lentOn: String
        let dueOn: String?

        enum CodingKeys: String, CodingKey {
            case title, lender
            case lentOn = "lent_on"
            case dueOn = "due_on"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(lender, forKey: .lender)
            try container.encode(lentOn, forKey: .lentOn)
            try container.encode(dueOn, forKey: .dueOn)
        }
    }

    struct Loans: Encodable {
        let lent: [LoanJSON]
        let borrowed: [BorrowedJSON]
    }

    struct LendBody: Decodable, Sendable {
        let bookID: Int64?
        let memberID: Int64?
        let name: String?
        let lentOn: String?
        let dueOn: String?

        enum CodingKeys: String, CodingKey {
            case name
            case bookID = "book_id"
            case memberID = "member_id"
            case lentOn = "lent_on"
            case dueOn = "due_on"
        }
    }

    /// GET /api/v1/household/library?owner=&genre=&available=&page=: every owned copy in the house, 60 a page.
    @Sendable func houseLibrary(_ request: Request, context: APIContext) async throws -> Response {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        var filters = LoanStore.HouseFilters()
        filters.ownerID = query["owner"].flatMap { BoundedNumber.id($0) }
        filters.genre = query.trimmed("genre").flatMap {
            $0.count <= LibraryFilters.maxTextLength && !NewBookForm.hasControlCharacters($0) ? $0 : nil
        }
        filters.availableOnly = query["available"] == "1" || query["available"] == "true"
        let page = query["page"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.listPage) } ?? 1
        let (copies, total) = try await loans.houseLibrary(for: context.userID, filters: filters, page: page)
        return JSONBody.response(
            HouseLibrary(
                copies: copies.map { copy in
                    Copy(
                        title: copy.title, author: copy.authors,
                        imageURL: copy.coverPath.map { BookCover.url(for: $0) },
                        owner: copy.owner, ownerID: copy.ownerID, location: copy.location, onLoanTo: copy.onLoanTo,
                        lentOn: copy.lentOn, bookID: copy.viewerBookID)
                }, page: page, matchingCount: total))
    }

    /// GET /api/v1/household/loans: the caller's copies out on loan, and what members lent them.
    @Sendable func listLoans(_ request: Request, context: APIContext) async throws -> Response {
        let today = clock.today()
        let lent = try await loans.lent(by: context.userID).map { Self.json($0, today: today) }
        let borrowed = try await loans.borrowed(by: context.userID).map {
            BorrowedJSON(title: $0.title, lender: $0.lender, lentOn: $0.lentOn, dueOn: $0.dueOn)
        }
        return JSONBody.response(Loans(lent: lent, borrowed: borrowed))
    }

    /// POST /api/v1/household/loans `{"book_id", "member_id" or "name", "lent_on"?, "due_on"?}`: 201 with the loan;
    /// 409 when the copy is out already.
    @Sendable func lend(_ request: Request, context: APIContext) async throws -> Response {
        let body = try await JSONBody.decode(LendBody.self, from: request)
        guard let bookID = body.bookID else {
            throw HTTPError(
                .unprocessableContent, message: "book_id is required: a book of yours, as /api/v1/books lists it.")
        }
        let entry = try await library.requireEntry(bookID: bookID, of: context.userID)
        let today = clock.today()
        let form = LoanForm(
            member: body.memberID.map(String.init) ?? "", name: body.name ?? "", lentOn: body.lentOn ?? "",
            dueOn: body.dueOn ?? "")
        let loan: LoanForm.Valid
        switch form.validated(today: today) {
        case .success(let valid): loan = valid
        case .failure(let errors): throw HTTPError(.unprocessableContent, message: errors.summary)
        }
        let loanID: Int64
        do {
            loanID = try await loans.lend(
                bookID: entry.bookID, userID: context.userID, toMember: loan.memberID, name: loan.name,
                lentOn: loan.lentOn, dueOn: loan.dueOn)
        } catch LoanStore.Refusal.alreadyOnLoan {
            throw HTTPError(.conflict, message: localized("This copy is on loan already. Mark it returned first."))
        } catch LoanStore.Refusal.notYours {
            throw HTTPError(
                .unprocessableContent, message: "member_id must be a member who shares with the household.")
        }
        // Read back by its id: the list of loans stops at 500, and the 501st was answered 500 though stored.
        guard let made = try await loans.lent(by: context.userID, loanID: loanID).first
        else { throw HTTPError(.internalServerError) }
        return JSONBody.response(Self.json(made, today: today), status: .created)
    }

    /// POST /api/v1/household/loans/:loanID/returned: 204.
    @Sendable func returned(_ request: Request, context: APIContext) async throws -> Response {
        guard let id = BoundedNumber.id(context.parameters.get("loanID")),
            try await loans.returned(loanID: id, lender: context.userID, on: clock.today())
        else { throw HTTPError(.notFound, message: localized("There is no such loan of yours still out.")) }
        return Response(status: .noContent)
    }

    private static func json(_ loan: LoanStore.Lent, today: String) -> LoanJSON {
        LoanJSON(
            id: loan.id, bookID: loan.bookID, title: loan.title, borrower: loan.borrowerName,
            borrowerID: loan.borrowerID, lentOn: loan.lentOn, dueOn: loan.dueOn,
            overdue: loan.dueOn.map { $0 < today } ?? false)
    }
}
