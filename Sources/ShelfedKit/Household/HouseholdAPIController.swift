import Foundation
import Hummingbird

/// The household for Shelfed's own clients (issue 25): the members visible to the caller (themself and those who
/// share), the house feed, and the caller's own sharing switch. The same queries as the pages.
struct HouseholdAPIController: Sendable {
    let sharing: HouseholdSharing
    let recommendations: RecommendationStore

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.householdMembers.routerPath, use: members)
        router.get(APIRoute.householdFeed.routerPath, use: feed)
        router.put(APIRoute.householdSharing.routerPath, use: setSharing)
    }

    struct Member: Encodable {
        let id: Int64
        let displayName: String
        let isYou: Bool
        let isAdmin: Bool
        let shares: Bool

        enum CodingKeys: String, CodingKey {
            case id, shares
            case displayName = "display_name"
            case isYou = "is_you"
            case isAdmin = "is_admin"
        }
    }

    struct Members: Encodable {
        let members: [Member]
        /// Everyone else, sharing or not: anyone in the house may be recommended a book (issue 35).
        let canRecommendTo: [Recipient]

        enum CodingKeys: String, CodingKey {
            case members
            case canRecommendTo = "can_recommend_to"
        }
    }

    struct Recipient: Encodable {
        let id: Int64
        let displayName: String

        enum CodingKeys: String, CodingKey {
            case id
            case displayName = "display_name"
        }
    }

    struct FeedItem: Encodable {
        let kind: String
        let day: String
        let member: String
        let title: String
        let page: Int?
        let percent: Double?
        let rating: Double?
        /// The caller's own book id for it, when they have it too.
        let bookID: Int64?
        /// The shared photo (`/house/photos/:id` on the web) or list (`/house/lists/:id`).
        let photoID: Int64?
        let listID: Int64?
        /// For `progress`: pages (or percent, as `page` or `percent` is given) read that day; nil for a first update.
        var readThatDay: Double? = nil
        /// For `imported`: how many books the import added; `title` names the file's kind ("Goodreads").
        var books: Int? = nil
        /// For `episodes`: how many were watched that day, the last of them, and whether that finished its season.
        var episodes: Int? = nil
        var season: Int? = nil
        var episode: Int? = nil
        var seasonFinished: Bool? = nil

        enum CodingKeys: String, CodingKey {
            case kind, day, member, title, page, percent, rating, books, episodes, season, episode
            case seasonFinished = "season_finished"
            case bookID = "book_id"
            case photoID = "photo_id"
            case listID = "list_id"
            case readThatDay = "read_that_day"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(day, forKey: .day)
            try container.encode(member, forKey: .member)
            try container.encode(title, forKey: .title)
            try container.encode(page, forKey: .page)
            try container.encode(percent, forKey: .percent)
            try container.encode(rating, forKey: .rating)
            try container.encode(readThatDay, forKey: .readThatDay)
            try container.encode(books, forKey: .books)
            if let episodes {
                try container.encode(episodes, forKey: .episodes)
                try container.encode(season, forKey: .season)
                try container.encode(episode, forKey: .episode)
                try container.encode(seasonFinished, forKey: .seasonFinished)
            }
            try container.encode(bookID, forKey: .bookID)
            try container.encode(photoID, forKey: .photoID)
            try container.encode(listID, forKey: .listID)
        }
    }

    struct Feed: Encodable {
        let items: [FeedItem]
        let page: Int
        let hasMore: Bool

        enum CodingKeys: String, CodingKey {
            case items, page
            case hasMore = "has_more"
        }
    }

    struct SharingBody: Decodable, Sendable {
        let shares: Bool
    }

    struct SharingAnswer: Encodable {
        let shares: Bool
    }

    /// GET /api/v1/household/members: you, and the members who share (nobody who does not); and, by name only,
    /// everyone a book can be recommended to.
    @Sendable func members(_ request: Request, context: APIContext) async throws -> Response {
        let visible = try await sharing.visibleMembers(for: context.userID)
        let recipients = try await recommendations.recipients(for: context.userID)
        return JSONBody.response(
            Members(
                members: visible.map {
                    Member(
                        id: $0.id, displayName: $0.displayName, isYou: $0.id == context.userID, isAdmin: $0.isAdmin,
                        shares: $0.shares)
                },
                canRecommendTo: recipients.map { Recipient(id: $0.id, displayName: $0.name) }))
    }

    /// GET /api/v1/household/feed?page=
    @Sendable func feed(_ request: Request, context: APIContext) async throws -> Response {
        let text = FormFields(urlEncoded: request.uri.query ?? "")["page"]
        var page = 1
        if let text {
            guard let parsed = BoundedNumber.parse(text, in: 1...HouseholdSharing.maxFeedPage) else {
                throw HTTPError(
                    .badRequest, message: "page must be a whole number from 1 to \(HouseholdSharing.maxFeedPage).")
            }
            page = parsed
        }
        let found = try await sharing.feed(for: context.userID, page: page)
        return JSONBody.response(
            Feed(
                items: found.items.map { item in
                    let imported = item.kind == .imported
                    var line = FeedItem(
                        kind: item.kind.rawValue, day: item.day, member: item.member, title: item.title,
                        page: item.byPercent || imported || item.kind == .episodes
                            ? nil : item.pageOrPercent.map { Int($0) },
                        percent: item.byPercent ? item.pageOrPercent : nil, rating: item.rating,
                        bookID: item.viewerBookID, photoID: item.kind == .photo ? item.sharedID : nil,
                        listID: item.kind == .list ? item.sharedID : nil, readThatDay: item.readThatDay,
                        books: imported ? item.pageOrPercent.map { Int($0) } : nil)
                    if let episodes = item.episodes {
                        line.episodes = episodes.count
                        line.season = episodes.season
                        line.episode = episodes.number
                        line.seasonFinished = episodes.finishedSeason
                    }
                    return line
                }, page: page, hasMore: found.hasMore))
    }

    /// PUT /api/v1/household/sharing `{"shares": true}`
    @Sendable func setSharing(_ request: Request, context: APIContext) async throws -> Response {
        let body = try await JSONBody.decode(SharingBody.self, from: request)
        try await sharing.setSharing(body.shares, for: context.userID)
        return JSONBody.response(SharingAnswer(shares: body.shares))
    }
}
