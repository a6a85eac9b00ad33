import Foundation
import Hummingbird

/// Recommending to each other and the house challenge for Shelfed's own clients (issue 25): the same stores and
/// rules as the book page's "Recommend" form, the home page's list and its challenge section.
struct HouseRecommendationsAPIController: Sendable {
    let recommendations: RecommendationStore
    let challenges: HouseChallengeStore
    let library: LibraryStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.householdRecommendations.routerPath, use: received)
        router.post(APIRoute.householdRecommendations.routerPath, use: recommend)
        router.delete(APIRoute.householdRecommendation.routerPath, use: dismiss)
        router.get(APIRoute.householdChallenge.routerPath, use: challenge)
    }

    struct Received: Encodable {
        let id: Int64
        let from: String
        let title: String
        let author: String
        let note: String?
        /// The caller's own book id, when they have the book.
        let bookID: Int64?

        enum CodingKeys: String, CodingKey {
            case id, from, title, author, note
            case bookID = "book_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(from, forKey: .from)
            try container.encode(title, forKey: .title)
            try container.encode(author, forKey: .author)
            try container.encode(note, forKey: .note)
            try container.encode(bookID, forKey: .bookID)
        }
    }

    struct ReceivedList: Encodable {
        let recommendations: [Received]
    }

    struct RecommendBody: Decodable, Sendable {
        let bookID: Int64?
        let memberID: Int64?
        let note: String?

        enum CodingKeys: String, CodingKey {
            case note
            case bookID = "book_id"
            case memberID = "member_id"
        }
    }

    struct Recommended: Encodable {
        let bookID: Int64
        let memberID: Int64

        enum CodingKeys: String, CodingKey {
            case bookID = "book_id"
            case memberID = "member_id"
        }
    }

    struct ChallengeJSON: Encodable {
        struct Member: Encodable {
            let name: String
            let amount: Int
            let isYou: Bool

            enum CodingKeys: String, CodingKey {
                case name, amount
                case isYou = "is_you"
            }
        }

        let year: Int
        let measure: String
        let goal: Int
        let total: Int
        let members: [Member]
    }

    struct ChallengeAnswer: Encodable {
        let challenge: ChallengeJSON?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(challenge, forKey: .challenge)
        }

        enum CodingKeys: String, CodingKey {
            case challenge
        }
    }

    /// GET /api/v1/household/recommendations: what members recommended to the caller and they have not dismissed.
    @Sendable func received(_ request: Request, context: APIContext) async throws -> Response {
        let received = try await recommendations.received(by: context.userID)
        return JSONBody.response(
            ReceivedList(
                recommendations: received.map {
                    Received(
                        id: $0.id, from: $0.from, title: $0.title, author: $0.authors, note: $0.note,
                        bookID: $0.recipientBookID)
                }))
    }

    /// POST /api/v1/household/recommendations `{"book_id", "member_id", "note"?}`: 201.
    @Sendable func recommend(_ request: Request, context: APIContext) async throws -> Response {
        let body = try await JSONBody.decode(RecommendBody.self, from: request)
        guard let bookID = body.bookID, let memberID = body.memberID else {
            throw HTTPError(
                .unprocessableContent,
                message: "book_id (a book of yours) and member_id (anyone else in the household) are required.")
        }
        let note = body.note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let note,
            note.count > RecommendationStore.maxNoteLength
                || NewBookForm.hasControlCharacters(note, allowingLineBreaks: true)
        {
            throw HTTPError(
                .unprocessableContent,
                message: localized(
                    "Keep the note to {{count}} characters, without invisible ones.",
                    ["count": String(RecommendationStore.maxNoteLength)]))
        }
        let entry = try await library.requireEntry(bookID: bookID, of: context.userID)
        do {
            try await recommendations.recommend(
                bookID: entry.bookID, from: context.userID, to: memberID, note: note?.isEmpty == true ? nil : note,
                now: clock.now())
        } catch RecommendationStore.Refusal.notAMember {
            throw HTTPError(.notFound, message: localized("There is no such member of the household."))
        }
        return JSONBody.response(Recommended(bookID: entry.bookID, memberID: memberID), status: .created)
    }

    /// DELETE /api/v1/household/recommendations/:recommendationID: dismisses it; 204.
    @Sendable func dismiss(_ request: Request, context: APIContext) async throws -> Response {
        guard let id = BoundedNumber.id(context.parameters.get("recommendationID")),
            try await recommendations.dismiss(id, recipient: context.userID, now: clock.now())
        else { throw HTTPError(.notFound, message: localized("There is no such recommendation to you.")) }
        return Response(status: .noContent)
    }

    /// GET /api/v1/household/challenge: this year's house challenge, or `{"challenge": null}`.
    @Sendable func challenge(_ request: Request, context: APIContext) async throws -> Response {
        let progress = try await challenges.progress(of: Int(clock.today().prefix(4)) ?? 0)
        return JSONBody.response(
            ChallengeAnswer(
                challenge: progress.map { progress in
                    ChallengeJSON(
                        year: progress.challenge.year, measure: progress.challenge.measure.rawValue,
                        goal: progress.challenge.goal, total: progress.total,
                        members: progress.contributions.map {
                            .init(name: $0.member, amount: $0.amount, isYou: $0.userID == context.userID)
                        })
                }))
    }
}
