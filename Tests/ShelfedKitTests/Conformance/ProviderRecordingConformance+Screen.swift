import Foundation
import Testing

@testable import ShelfedKit

/// The film and show parsers against real TMDB, TVmaze and Wikidata answers, read in place (issue 37).
extension SharedFixtureConformance.Providers {
    static func decode<Record: Decodable>(_ type: Record.Type, _ path: String) throws -> Record {
        try JSONDecoder().decode(type, from: recording(path))
    }

    static let posters = TMDBPosters(baseURL: "https://image.example/t/p")

    @Test func tmdbMultiSearchKeepsItsFilmsAndShowsAndDropsItsPeople() throws {
        let page = try Self.decode(TMDBSearchPage.self, "tmdb/search_multi_Disney_page1__18Months_themoviedb-api.json")
        let titles = (page.results ?? []).compactMap { $0.title(kind: nil, posters: Self.posters) }
        #expect(page.results?.count == 20 && titles.count == 16)
        #expect(titles.filter { $0.kind == .movie }.count == 9 && titles.filter { $0.kind == .show }.count == 7)
        #expect(titles.filter { $0.posterURL == nil }.count == 1)
        #expect(titles.allSatisfy { $0.year.map(ScreenLimits.year.contains) ?? true })
    }

    @Test func tmdbShowSearchReadsAnEmptyFirstAirDateAsUnknown() throws {
        let page = try Self.decode(TMDBSearchPage.self, "tmdb/search_tv_game_of_thrones__jdrouet_tmdb-api.json")
        let shows = (page.results ?? []).compactMap { $0.title(kind: .show, posters: Self.posters) }
        #expect(shows.map(\.year) == [2011, 2021, 2022, nil])
        #expect(
            shows.last?.posterURL == nil
                && shows.first?.posterURL?.hasSuffix("/w500/1XS1oqL89opfnbLl8WnZY1O1uJx.jpg") == true)
    }

    @Test func tmdbFilmDetailsAndCreditsReadAsAFilm() throws {
        let movie = try Self.decode(TMDBMovie.self, "tmdb/movie_550_fight_club__jdrouet_tmdb-api.json")
        let film = try #require(movie.title(posters: Self.posters))
        #expect(film.title == "Fight Club" && film.year == 1999 && film.runtimeMinutes == 139)
        #expect(film.ids.imdb == "tt0137523" && film.ids.tmdb == 550)
        let credits = try Self.decode(TMDBCredits.self, "tmdb/movie_550_credits__jdrouet_tmdb-api.json")
        #expect(ScreenText.names(credits.billed, limit: 3) == ["Edward Norton", "Brad Pitt", "Helena Bonham Carter"])
        #expect(credits.crew?.first { $0.job == "Director" }?.name == "David Fincher")
        let ids = try Self.decode(TMDBExternalIDs.self, "tmdb/movie_550_external_ids__jdrouet_tmdb-api.json")
        #expect(ids.wikidataID == "Q190050")
        // A 2017 answer with `append_to_response`: the parts it did not ask for are simply absent.
        let taken = try Self.decode(TMDBMovie.self, "tmdb/movie_8681_taken_append_alternative_titles__Flexget.json")
        #expect(taken.title(posters: Self.posters)?.title == "Taken")
    }

    @Test func tmdbShowDetailsListSpecialsApartAndReadAnEmptyRunTime() throws {
        let show = try Self.decode(TMDBShow.self, "tmdb/tv_1399_game_of_thrones__jdrouet_tmdb-api.json")
        #expect(show.seasonEpisodeCounts.map(\.number) == Array(0...8))
        #expect(show.seasonEpisodeCounts.first?.episodes == 270)
        // The specials' 270 episodes and the eight seasons' 73 fit one request after the details.
        #expect(TMDBClient.seasonBatches(show.seasonEpisodeCounts) == [Array(0...8)])
        let season = try Self.decode(TMDBShow.Season.self, "tmdb/tv_1399_season_1__jdrouet_tmdb-api.json")
        let title = try #require(show.title(posters: Self.posters, seasons: [1: season]))
        #expect(title.runtimeMinutes == nil && title.running == false)
        #expect(title.creators == ["David Benioff", "D.B. Weiss"])
        #expect(title.seasons.map(\.number) == [1] && title.seasons[0].episodes.count == 10)
        #expect(title.seasons[0].episodes[0].airDate == "2011-04-17")
    }

    @Test func tmdbErrorBodiesAndFindAnswersDecodeWithoutSurprises() throws {
        // A `find` that matched two kinds: only the result list of the kind wanted is read.
        let found =
            try JSONSerialization.jsonObject(
                with: Self.recording("tmdb/find_72023_tvdb_id_show_and_episode__jdrouet_tmdb-api.json"))
            as? [String: Any]
        #expect((found?["tv_results"] as? [Any])?.count == 1)
        // Error bodies are not search pages: their results are absent, never a crash.
        for name in [
            "error_401_invalid_api_key_status_code_7__jdrouet_tmdb-api.json",
            "error_404_not_found_status_code_34__jdrouet_tmdb-api.json",
            "error_422_query_must_be_provided__jdrouet_tmdb-api.json",
        ] {
            #expect(try Self.decode(TMDBSearchPage.self, "tmdb/" + name).results == nil)
        }
    }

    @Test func tvmazeSearchAndShowsReadWithTheirHTMLAndNulls() throws {
        let hits = try Self.decode([TVmazeSearchHit].self, "tvmaze/search_shows_q_silicon_valley__TVMaze4J.json")
        let images = TVmazeImages(baseURL: "https://api.tvmaze.com")
        let shows = hits.compactMap { $0.show?.title(images: images) }
        #expect(shows.count == 3 && shows.filter { $0.posterURL == nil }.count == 1)
        #expect(shows.allSatisfy { $0.overview.map { !$0.contains("<") } ?? true })
        #expect(shows.compactMap(\.posterURL).allSatisfy { $0.hasPrefix("https://static.tvmaze.com/") })

        let embedded = try Self.decode(
            TVmazeShow.self, "tvmaze/singlesearch_shows_q_silicon_valley_embed_episodes__TVMaze4J.json")
        let valley = try #require(embedded.title(images: images))
        #expect(valley.seasons.map(\.number) == [1, 2, 3, 4])
        #expect(valley.seasons.reduce(0) { $0 + $1.episodes.count } == 38)
        #expect(valley.seasons[0].episodes[0].airDate == "2014-04-06" && valley.ids.imdb == "tt2575988")

        let unite = try Self.decode(TVmazeShow.self, "tvmaze/singlesearch_shows_q_unite_9_embed_seasons__Flexget.json")
        let show = try #require(unite.title(images: images))
        #expect(show.title == "Unité 9" && show.genres.isEmpty && show.year == 2012 && show.running == true)
        let episodes = try Self.decode([TVmazeEpisode].self, "tvmaze/shows_143_episodes__TVMaze4J.json")
        #expect(episodes.count == 38 && episodes.allSatisfy { $0.number != nil })
    }

    @Test func wikidataFilmEntitiesReadTheirYearRuntimeAndIDs() throws {
        let entity = try Self.decode(
            WikidataEntity.self, "wikidata/entity_Q2262932_City_Streets_1931_film__vlsergey_WE-Framework.json")
        #expect(entity.isFilm && entity.label == "City Streets")
        // P577 has the year's precision only: 1931, its month and day never shown.
        #expect(entity.releaseYear == 1931 && entity.runtimeMinutes == 82)
        let film = try #require(entity.searchResult())
        #expect(film.ids.imdb == "tt0021750" && film.ids.wikidata == "Q2262932" && film.ids.tmdb == nil)
        #expect(entity.items("P57").count == 1)

        // An item without a label in any language is no title.
        let book = try Self.decode(WikidataEntities.self, "wikidata/wbgetentities_Q3235026__maxlath_wikibase-sdk.json")
        #expect(book.entities?["Q3235026"]?.label == nil && book.entities?["Q3235026"]?.searchResult() == nil)
        let search = try Self.decode(
            WikidataSearchAnswer.self, "wikidata/query_list_search_cirrus__maxlath_wikibase-sdk.json")
        #expect(search.itemIDs == ["Q1"])
    }
}
