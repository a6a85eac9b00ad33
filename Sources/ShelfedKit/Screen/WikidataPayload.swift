/// Wikidata's answers, as far as Shelfed reads them: films without a key (DESIGN §17; CC0, no posters). Labels may
/// be missing in every language; a claim may be "unknown value" or deprecated; a date's precision may be the year
/// alone, its month and day padding.
struct WikidataSearchAnswer: Decodable {
    struct Query: Decodable {
        let search: [Hit]?
    }

    struct Hit: Decodable {
        let title: String?
    }

    let query: Query?

    /// The item ids found, each once.
    var itemIDs: [String] {
        var ids: [String] = []
        for id in (query?.search ?? []).compactMap({ $0.title.flatMap(ScreenIDs.wikidataID) }) where !ids.contains(id) {
            ids.append(id)
        }
        return ids
    }
}

struct WikidataEntities: Decodable {
    let entities: [String: WikidataEntity]?
}

struct WikidataEntity: Decodable {
    struct Text: Decodable {
        let value: String?
    }

    struct Claim: Decodable {
        struct Snak: Decodable {
            let snaktype: String?
            let datavalue: DataValue?
        }

        let mainsnak: Snak?
        let rank: String?
    }

    /// A claim's value: a string (an external id), an item, a time, a quantity or a text, told apart by its keys.
    struct DataValue: Decodable {
        let string: String?
        let itemID: String?
        let time: String?
        let precision: Int?
        let amount: String?
        let unit: String?
        let text: String?

        private enum ValueKey: String, CodingKey {
            case value
        }

        private enum Field: String, CodingKey {
            case id, time, precision, amount, unit, text
        }

        init(from decoder: any Decoder) throws {
            let outer = try decoder.container(keyedBy: ValueKey.self)
            if let string = try? outer.decode(String.self, forKey: .value) {
                self.string = string
                (itemID, time, precision, amount, unit, text) = (nil, nil, nil, nil, nil, nil)
                return
            }
            string = nil
            let value = try? outer.nestedContainer(keyedBy: Field.self, forKey: .value)
            itemID = try? value?.decodeIfPresent(String.self, forKey: .id)
            time = try? value?.decodeIfPresent(String.self, forKey: .time)
            precision = try? value?.decodeIfPresent(Int.self, forKey: .precision)
            amount = try? value?.decodeIfPresent(String.self, forKey: .amount)
            unit = try? value?.decodeIfPresent(String.self, forKey: .unit)
            text = try? value?.decodeIfPresent(String.self, forKey: .text)
        }
    }

    let id: String?
    let labels: [String: Text]?
    let descriptions: [String: Text]?
    let claims: [String: [Claim]]?

    /// The English label, else any label (in a stable order); nil when it has none.
    var label: String? {
        guard let labels else { return nil }
        return ScreenText.clean(labels["en"]?.value ?? labels.keys.sorted().lazy.compactMap { labels[$0]?.value }.first)
    }

    var description: String? { ScreenText.clean(descriptions?["en"]?.value, limit: 300) }

    /// The values of `property`, preferred statements first, deprecated and unknown ones left out.
    func values(_ property: String) -> [DataValue] {
        let usable = (claims?[property] ?? []).filter { $0.rank != "deprecated" && $0.mainsnak?.snaktype == "value" }
        return (usable.filter { $0.rank == "preferred" } + usable.filter { $0.rank != "preferred" })
            .compactMap(\.mainsnak?.datavalue)
    }

    func items(_ property: String) -> [String] {
        values(property).compactMap { $0.itemID.flatMap(ScreenIDs.wikidataID) }
    }

    /// The year of the first release (P577): the earliest date given, whatever its precision.
    var releaseYear: Int? {
        values("P577").compactMap { $0.time.map { String($0.drop(while: { $0 == "+" })) }.flatMap(ScreenText.year) }
            .min()
    }

    /// The running time (P2047) in minutes, when given in minutes or hours.
    var runtimeMinutes: Int? {
        for value in values("P2047") {
            // Anyone may edit Wikidata: an amount of 1e20 must be an unknown running time, not a trap.
            guard let amount = value.amount.flatMap({ Double($0.drop(while: { $0 == "+" })) }),
                amount.isFinite, amount > 0, amount <= Double(BoundedNumber.runtimeMinutes.upperBound)
            else { continue }
            switch value.unit {
            case "http://www.wikidata.org/entity/Q7727": return ScreenText.minutes(Int(amount.rounded()))
            case "http://www.wikidata.org/entity/Q25235": return ScreenText.minutes(Int((amount * 60).rounded()))
            default: continue
            }
        }
        return nil
    }

    /// Whether it is a film: an instance of film (Q11424) or of one of its common kinds.
    var isFilm: Bool {
        !Set(items("P31")).isDisjoint(with: Self.filmClasses)
    }

    static let filmClasses: Set<String> = [
        "Q11424", "Q24869", "Q202866", "Q93204", "Q506240", "Q229390", "Q24862", "Q20667187", "Q226730",
    ]

    /// The film as search lists it: the year from its release date.
    func searchResult() -> ScreenTitle? {
        guard let id = id.flatMap(ScreenIDs.wikidataID), let title = label else { return nil }
        return ScreenTitle(
            kind: .movie, source: .wikidata, title: title, year: releaseYear ?? Self.year(in: description),
            overview: description, posterURL: nil,
            ids: ScreenIDs(
                tmdb: values("P4947").first?.string.flatMap { Int($0) }, imdb: values("P345").first?.string,
                wikidata: id),
            runtimeMinutes: runtimeMinutes)
    }

    /// "2021 film by Denis Villeneuve": the year a description starts with, when a search had no claims to read.
    static func year(in description: String?) -> Int? {
        guard let description else { return nil }
        return description.split(separator: " ").lazy.compactMap { ScreenText.year(String($0)) }.first
    }
}
