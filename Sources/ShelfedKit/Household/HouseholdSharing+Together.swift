import Foundation

extension HouseholdSharing {
    struct Companion: Sendable, Equatable {
        let name: String
        let memberID: Int64?
    }

    /// Folds the lines of people who watched the same film, or the same episodes of a show, on the same day into the
    /// first of them (issue 38: "Robin and Sam watched S2E3"), whether or not they told each other. A merged line
    /// gives no rating: theirs may differ. The pages fold; the API lists each person's line as it always has.
    static func foldWatchedTogether(_ items: [FeedItem]) -> [FeedItem] {
        var folded: [FeedItem] = []
        var seen: [String: Int] = [:]
        for item in items {
            let together = item.kind == .episodes || (item.kind == .finished && item.titleKind == .movie)
            guard together else {
                folded.append(item)
                continue
            }
            let episodes = item.episodes.map { "\($0.count):\($0.season):\($0.number):\($0.finishedSeason)" } ?? ""
            let key = "\(item.kind.rawValue)|\(item.day)|\(item.titleKind.rawValue)|\(item.title)|\(episodes)"
            if let index = seen[key] {
                folded[index].companions.append(Companion(name: item.member, memberID: item.memberID))
                folded[index].rating = nil
            } else {
                seen[key] = folded.count
                folded.append(item)
            }
        }
        return folded
    }
}
