import AsyncHTTPClient
import Foundation
import Logging
import Testing

@testable import ShelfedKit

/// A film and show search service wired to the fake providers and a fresh database.
func makeTitleSearch(_ fake: FakeBooksServer, tmdbToken: String? = nil, settings: SearchSettings? = nil) throws
    -> (TitleSearchService, AppDatabase)
{
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("shelfed-titles-\(UUID()).sqlite").path
    var logger = Logger(label: "title-search-tests")
    logger.logLevel = .critical
    let database = try AppDatabase(path: path)
    let service = TitleSearchService(
        settings: settings ?? fake.settings(tmdbToken: tmdbToken), database: database, clock: TestClock().appClock,
        logger: logger, http: { OutboundHTTP.client })
    return (service, database)
}

/// The film and show providers (issue 37, DESIGN §17) against stand-ins answering like the recordings: TMDB with a
/// token, TVmaze and Wikidata without one, each answer bounded and cleaned, and each failure a clear `UpstreamFailure`.
@Suite struct ScreenProviderTests {
    @Test func tmdbSearchKeepsFilmsAndShowsAndDropsPeopleAndNonsense() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, tmdbToken: FakeBooksServer.tmdbToken)
            let answer = try await service.search("Dune", kind: nil)
            #expect(answer.source == "tmdb" && !answer.tokenRefused)
            // Frank Herbert (a person) and the item without an id or title are left out.
            #expect(answer.results.map(\.title) == ["Dune", "Dune: Prophecy", "Dune"])
            let film = answer.results[0]
            #expect(film.kind == .movie && film.year == 2021 && film.ids.tmdb == 438631)
            #expect(film.posterURL == fake.baseURL + "/tmdbimages/w500/d5NXSklXo0qyIYkgV94XAgMIckC.jpg")
            #expect(answer.results[1].kind == .show && answer.results[1].year == 2024)
            // `release_date: ""` and `poster_path: null` are unknown, not a year 0 or a broken link.
            #expect(answer.results[2].year == nil && answer.results[2].posterURL == nil)
            #expect(fake.tmdbRequests.count == 1 && fake.tmdbRequests[0].hasPrefix("/tmdb/search/multi?"))

            let films = try await service.search("dune", kind: .movie)
            #expect(films.results.map(\.kind) == [.movie, .movie])
            #expect(fake.tmdbRequests.last?.hasPrefix("/tmdb/search/movie?") == true)
            let again = try await service.search(" DUNE ", kind: nil)
            #expect(again.cached && fake.tmdbRequests.count == 2)
        }
    }

    @Test func aTMDBFilmComesWithItsDirectorCastInBillingOrderRuntimeAndIDs() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, tmdbToken: FakeBooksServer.tmdbToken)
            let film = try await service.title(source: .tmdb, id: "438631", kind: .movie)
            #expect(film.creators == ["Denis Villeneuve"])
            #expect(film.cast == ["Timothée Chalamet", "Rebecca Ferguson", "Josh Brolin", "Zendaya"])
            #expect(film.runtimeMinutes == 155 && film.genres == ["Science Fiction", "Adventure"])
            #expect(film.ids == ScreenIDs(tmdb: 438631, imdb: "tt1160419", wikidata: "Q37550044"))
            #expect(fake.tmdbRequests == ["/tmdb/movie/438631?append_to_response=credits,external_ids"])
            await #expect(throws: UpstreamFailure.notFound) {
                try await service.title(source: .tmdb, id: "1", kind: .movie)
            }
        }
    }

    @Test func tmdbAnswersInThePersonsLanguageAndAMissingSynopsisIsEnglishs() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, tmdbToken: FakeBooksServer.tmdbToken)
            let spanish = try await Language.$current.withValue(.es) {
                try await service.title(source: .tmdb, id: "438631", kind: .movie)
            }
            #expect(spanish.overview == FakeBooksServer.spanishDuneOverview)
            #expect(spanish.creators == ["Denis Villeneuve"] && spanish.runtimeMinutes == 155)
            // Genres are kept by their English names, whoever added the title: one filter for the house.
            #expect(spanish.genres == ["Science Fiction", "Adventure"])
            // English's answer is its own, not Spanish's from the cache, and asks without a language.
            let english = try await service.title(source: .tmdb, id: "438631", kind: .movie)
            #expect(english.overview?.hasPrefix("Paul Atreides, a brilliant and gifted young man") == true)
            // German: TMDB has no German synopsis, so the English one is asked for, without credits.
            let german = try await Language.$current.withValue(.de) {
                try await service.title(source: .tmdb, id: "438631", kind: .movie)
            }
            #expect(german.overview == english.overview && german.cast == english.cast)
            #expect(
                fake.tmdbRequests == [
                    "/tmdb/movie/438631?append_to_response=credits,external_ids&language=es-ES",
                    "/tmdb/movie/438631?append_to_response=credits,external_ids",
                    "/tmdb/movie/438631?append_to_response=credits,external_ids&language=de-DE",
                    "/tmdb/movie/438631",
                ])
            // A search in Spanish asks in Spanish and is cached apart from English's.
            _ = try await Language.$current.withValue(.es) { try await service.search("Dune", kind: .movie) }
            _ = try await service.search("Dune", kind: .movie)
            #expect(fake.tmdbRequests.suffix(2).map { $0.contains("language=es-ES") } == [true, false])
        }
    }

    @Test func aTMDBShowComesWithItsSeasonsSpecialsApartInAsFewRequestsAsTMDBAllows() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, tmdbToken: FakeBooksServer.tmdbToken)
            let show = try await service.title(source: .tmdb, id: "90228", kind: .show)
            #expect(show.seasons.map(\.number) == [0, 1])
            #expect(show.seasons.map(\.episodes.count) == [2, 6])
            #expect(show.seasons[1].name == "Season 1" && show.seasons[1].episodes[0].title == "Episode 1")
            // `episode_run_time: []` is an unknown running time.
            #expect(show.runtimeMinutes == nil && show.running == true)
            #expect(show.creators == ["Diane Ademu-John", "Alison Schapker"])
            #expect(fake.tmdbRequests.count == 2)
            #expect(fake.tmdbRequests[1].hasSuffix("append_to_response=season/0,season/1"))

            // Thirty seasons and the specials: the details, then twenty seasons, then eleven (issue 37's budget: 3).
            let long = try await service.title(source: .tmdb, id: "999030", kind: .show)
            #expect(long.seasons.count == 31 && long.seasons.last?.number == 30)
            #expect(long.seasons.reduce(0) { $0 + $1.episodes.count } == 303)
            #expect(fake.tmdbRequests.count == 5)

            // A soap opera's 7,200 episodes: a season to a request, each season and the whole kept to the bounds.
            let soap = try await service.title(source: .tmdb, id: "999015", kind: .show)
            #expect(soap.seasons.map(\.episodes.count) == Array(repeating: ScreenLimits.episodesPerSeason, count: 5))
            #expect(soap.seasons.reduce(0) { $0 + $1.episodes.count } == ScreenLimits.episodes)
            #expect(soap.year == nil && fake.tmdbRequests.count == 12)
        }
    }

    @Test func aRefusedTokenFallsBackToTheKeylessProvidersAndSaysSo() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, tmdbToken: "eyJ.wrong-token-for-tests.x")
            let answer = try await service.search("severance", kind: .show)
            #expect(answer.tokenRefused && answer.source == "tvmaze")
            #expect(answer.results.first?.title == "Severance")
            #expect(fake.tmdbRequests.count == 1, "a refusal is not retried")
        }
    }

    @Test func tvmazeShowsAreCleanedAndTheirPicturesOnlyFetchedFromTVmaze() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake)
            let answer = try await service.search("Severance", kind: .show)
            #expect(answer.source == "tvmaze")
            let shows = answer.results
            #expect(shows.map(\.title) == ["Severance", "Severance Pay", "Evil Poster"])
            #expect(shows[0].overview?.hasPrefix("Severance follows Mark Scout") == true)
            #expect(shows[0].overview?.contains("<") == false && shows[0].overview?.contains("alert") == false)
            #expect(shows[0].posterURL?.hasPrefix(fake.baseURL + "/tvmaze/images/") == true)
            #expect(shows[0].ids.imdb == "tt11280740")
            #expect(shows[1].posterURL == nil && shows[1].year == nil && shows[1].overview == nil)
            // A picture on another host (an address inside the house, say) is never fetched; a bad id is dropped.
            #expect(shows[2].posterURL == nil && shows[2].ids.imdb == nil)

            let show = try await service.title(source: .tvmaze, id: "44778", kind: .show)
            // The special without a number is left out, the episode listed twice kept once.
            #expect(show.seasons.map(\.number) == [1, 2])
            #expect(show.seasons.map { $0.episodes.map(\.number) } == [[1, 2, 3, 4], [1, 2, 3, 4]])
            #expect(show.creators == ["Dan Erickson"] && show.cast == ["Adam Scott", "Britt Lower"])
            #expect(show.runtimeMinutes == 52 && show.running == true)
            #expect(fake.tvmazeRequests.last?.contains("embed%5B%5D=episodes") == true)

            // TVmaze's empty-bodied 404 is "no such show", not a parse failure.
            await #expect(throws: UpstreamFailure.notFound) {
                try await service.title(source: .tvmaze, id: "999", kind: .show)
            }
        }
    }

    @Test func wikidataFilmsHaveTheirYearPeopleAndIDsWithoutAKey() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake)
            let answer = try await service.search("dune", kind: .movie)
            #expect(answer.source == "wikidata")
            // The item without a label in any language is left out.
            #expect(answer.results.map(\.title) == ["Dune"])
            #expect(answer.results[0].year == 2021 && answer.results[0].posterURL == nil)
            #expect(fake.wikidataRequests[0].contains("dune%20haswbstatement:P31%3DQ11424"))

            let film = try await service.title(source: .wikidata, id: "Q37550044", kind: .movie)
            // The earliest release, the director (not the unknown one), the cast without the deprecated claim.
            #expect(film.year == 2021 && film.creators == ["Denis Villeneuve"])
            #expect(film.cast == ["Timothée Chalamet"] && film.genres == ["science fiction film"])
            #expect(film.runtimeMinutes == 155)
            #expect(film.ids == ScreenIDs(tmdb: 438631, imdb: "tt1160419", wikidata: "Q37550044"))
            await #expect(throws: UpstreamFailure.notFound) {
                try await service.title(source: .wikidata, id: "../../etc", kind: .movie)
            }
        }
    }

    @Test func withoutAKindAndWithoutATokenBothKeylessProvidersAnswerAndOneFailingLeavesTheOther() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake)
            // A generous wait: both answer as soon as they can, and a loaded test run must not cut either short.
            let both = try await service.search("dune", kind: nil, within: .seconds(60))
            #expect(both.source == "wikidata+tvmaze" && both.results.map(\.kind) == [.movie])
            fake.failScreen("tvmaze", .status(500), .status(500), .status(500))
            let films = try await service.search("Severance", kind: nil, within: .seconds(60))
            #expect(films.source == "wikidata" && films.results.isEmpty)
        }
    }

    /// Every way a provider fails reaches the page as an `UpstreamFailure` it knows how to word.
    @Test(arguments: ["tmdb", "tvmaze", "wikidata"])
    func eachProviderFailingInEveryWayIsAnUpstreamFailure(provider: String) async throws {
        try await FakeBooksServer.run { fake in
            // TMDB with its token; the keyless providers without one, each asked for its own kind.
            let token = provider == "tmdb" ? FakeBooksServer.tmdbToken : nil
            // A slow answer under a loaded run must not be taken for the fault and retried into the written answer.
            let (service, _) = try makeTitleSearch(
                fake, settings: fake.settings(timeout: .seconds(4), tmdbToken: token))
            let (hurried, _) = try makeTitleSearch(
                fake, settings: fake.settings(timeout: .milliseconds(600), tmdbToken: token))
            let kind: TitleKind = provider == "wikidata" ? .movie : .show
            func search(_ query: String) async throws -> TitleSearchAnswer {
                try await service.search(query, kind: kind)
            }
            let cases: [(FakeBooksServer.Fault, UpstreamFailure)] = [
                (.status(401), .refused(status: 401)), (.status(404), .notFound),
                (.rateLimited(retryAfter: "30"), .rateLimited(retryAfter: 30, dailyQuota: false)),
                (.malformedJSON, .malformed), (.hugeBody, .tooLarge),
            ]
            for (index, (fault, expected)) in cases.enumerated() {
                fake.failScreen(provider, fault)
                let query = "dune \(index)"
                if provider == "tmdb", expected == .refused(status: 401) {
                    // A refused token falls back (the keyless answer for these words is empty) and says so.
                    #expect(try await search(query).tokenRefused)
                    continue
                }
                await #expect(throws: expected, "\(fault)") { try await search(query) }
            }
            fake.failScreen(provider, .hang, .hang, .hang)
            await #expect(throws: UpstreamFailure.timeout) { try await hurried.search("dune hang", kind: kind) }
        }
    }
}
