import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// `/api/v1/titles…` (issue 37, DESIGN §17): search, add from ids or by hand, list and count by kind and shelf,
/// change the shelf, rating and favourite, remove; viewings and episodes; another person's id, or a book's, is a 404.
@Suite struct TitlesAPITests {
    @Test func aFilmIsFoundAddedRatedInHalfStarsAndRemoved() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken)).run { client in
                let api = try await LibraryAPITests.signedIn(client)
                let found = try await api.get("/api/v1/titles/search?q=dune&kind=movie")
                #expect(found.status == .ok && found.json?["source"] as? String == "tmdb")
                let first = try #require((found.json?["results"] as? [[String: Any]])?.first)
                #expect(first["year"] as? Int == 2021 && first["source"] as? String == "tmdb")
                #expect((first["ids"] as? [String: Any])?["tmdb"] as? Int == 438631)
                #expect((first["ids"] as? [String: Any])?.keys.sorted() == ["imdb", "tmdb", "tvmaze", "wikidata"])

                let created = try await api.send(
                    .post, "/api/v1/titles", json: ["kind": "movie", "ids": ["tmdb": 438631], "shelf": "watched"])
                #expect(created.status == .created)
                let id = try #require((created.json?["id"] as? NSNumber)?.int64Value)
                #expect(created.json?["shelf"] as? String == "watched" && created.json?["year"] as? Int == 2021)
                #expect(created.json?["creators"] as? [String] == ["Denis Villeneuve"])
                #expect(created.json?["runtimeMinutes"] as? Int == 155)
                #expect(created.json?["rating"] is NSNull)
                let twice = try await api.send(
                    .post, "/api/v1/titles", json: ["kind": "movie", "ids": ["tmdb": 438631]])
                #expect(twice.status == .conflict)

                let rated = try await api.send(
                    .patch, "/api/v1/titles/\(id)", json: ["rating": 4.5, "favourite": true])
                #expect(rated.status == .ok && rated.json?["rating"] as? Double == 4.5)
                #expect(rated.json?["favourite"] as? Bool == true)
                for bad in [4.3, 0, 5.5, -1] {
                    let refused = try await api.send(.patch, "/api/v1/titles/\(id)", json: ["rating": bad])
                    #expect(refused.status == .unprocessableContent, "\(bad)")
                }
                let cleared = try await api.send(.patch, "/api/v1/titles/\(id)", json: ["rating": NSNull()])
                #expect(cleared.json?["rating"] is NSNull && cleared.json?["favourite"] as? Bool == true)
                #expect(
                    try await api.send(.patch, "/api/v1/titles/\(id)", json: ["shelf": "reading"]).status
                        == .unprocessableContent)

                let viewings = try await api.get("/api/v1/titles/\(id)/viewings")
                #expect((viewings.json?["viewings"] as? [[String: Any]])?.count == 1)
                let again = try await api.send(.post, "/api/v1/titles/\(id)/viewings", json: ["date": "2025-12-24"])
                #expect(again.status == .created)
                let passes = try #require(again.json?["viewings"] as? [[String: Any]])
                #expect(passes.map { $0["finished"] as? String } == ["2025-12-24", "2026-03-15"])
                #expect(
                    try await api.send(.post, "/api/v1/titles/\(id)/viewings", json: ["date": "2099-01-01"]).status
                        == .unprocessableContent)
                #expect(try await api.get("/api/v1/titles/\(id)/episodes").status == .notFound)

                #expect(try await api.send(.delete, "/api/v1/titles/\(id)").status == .noContent)
                #expect(try await api.get("/api/v1/titles/\(id)").status == .notFound)
            }
        }
    }

    @Test func aShowsEpisodesAreMarkedAndListedAndCountsArePerKind() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let api = try await LibraryAPITests.signedIn(client)
                let show = try await api.send(
                    .post, "/api/v1/titles", json: ["kind": "show", "ids": ["tvmaze": 44778]])
                let id = try #require((show.json?["id"] as? NSNumber)?.int64Value)
                let film = try await api.send(
                    .post, "/api/v1/titles", json: ["kind": "movie", "title": "Heat", "year": 1995, "shelf": "watched"])
                #expect(film.status == .created && film.json?["year"] as? Int == 1995)
                let filmID = try #require((film.json?["id"] as? NSNumber)?.int64Value)

                var marked = try await api.send(.post, "/api/v1/titles/\(id)/episodes", json: ["season": 1, "upTo": 3])
                #expect(
                    marked.status == .ok && marked.json?["watched"] as? Int == 3 && marked.json?["aired"] as? Int == 7)
                marked = try await api.send(.post, "/api/v1/titles/\(id)/episodes", json: ["season": 1, "upTo": 3])
                #expect(marked.json?["watched"] as? Int == 3, "marking twice keeps one")
                let seasons = try #require(marked.json?["seasons"] as? [[String: Any]])
                #expect(seasons.map { $0["number"] as? Int } == [1, 2])
                let episode = try #require((seasons[0]["episodes"] as? [[String: Any]])?.first)
                #expect(episode["watched"] as? Bool == true && episode["watchedOn"] as? String == "2026-03-15")
                #expect(try await api.get("/api/v1/titles/\(id)").json?["shelf"] as? String == "watching")
                for body: [String: Any] in [
                    ["season": 1, "episode": 2, "upTo": 3], ["season": -1], ["season": 1, "episode": 0],
                ] {
                    let refused = try await api.send(.post, "/api/v1/titles/\(id)/episodes", json: body)
                    #expect(refused.status == .unprocessableContent, "\(body)")
                }
                #expect(
                    try await api.send(.post, "/api/v1/titles/\(id)/episodes", json: ["season": 9, "episode": 1]).status
                        == .notFound)
                let viewings = try await api.get("/api/v1/titles/\(id)/viewings")
                let first = try #require((viewings.json?["viewings"] as? [[String: Any]])?.first)
                #expect(
                    first["id"] as? Int == 1 && first["episodesWatched"] as? Int == 3 && first["finished"] is NSNull)
                #expect(
                    try await api.send(.post, "/api/v1/titles/\(id)/viewings").status == .conflict,
                    "a show still being watched is not watched again")

                let shelves = try #require(
                    try await api.get("/api/v1/titles/shelves?kind=show").json?["shelves"] as? [[String: Any]])
                #expect(shelves.map { $0["id"] as? String } == ["want_to_watch", "watching", "watched", "stopped"])
                #expect(shelves.map { $0["count"] as? Int } == [0, 1, 0, 0])
                let all = try await api.get("/api/v1/titles?limit=1")
                #expect(all.json?["total"] as? Int == 2 && (all.json?["titles"] as? [[String: Any]])?.count == 1)
                let watched = try await api.get("/api/v1/titles?shelf=watched&kind=movie")
                #expect(
                    (watched.json?["titles"] as? [[String: Any]])?.map { ($0["id"] as? NSNumber)?.int64Value }
                        == [filmID])
                for query in ["kind=book", "shelf=read", "limit=0", "limit=101", "offset=-1"] {
                    #expect(try await api.get("/api/v1/titles?\(query)").status == .badRequest, "\(query)")
                }
            }
        }
    }

    @Test func anotherPersonsTitleOrABookIsNotFoundAndTheBookRoutesIgnoreTitles() async throws {
        try await TestApp().run { client in
            let alice = try await LibraryAPITests.signedIn(client)
            let film = try await alice.send(.post, "/api/v1/titles", json: ["kind": "movie", "title": "Heat"])
            let filmID = try #require((film.json?["id"] as? NSNumber)?.int64Value)
            let book = try await alice.send(.post, "/api/v1/books", json: ["title": "Emma"])
            let bookID = try #require(((book.json?["book"] as? [String: Any])?["id"] as? NSNumber)?.int64Value)
            #expect(try await alice.get("/api/v1/titles/\(bookID)").status == .notFound)
            #expect(try await alice.get("/api/v1/books/\(filmID)").status == .notFound)
            #expect(try await alice.get("/api/v1/titles").json?["total"] as? Int == 1)
            #expect(
                try await alice.send(.post, "/api/v1/titles", json: ["kind": "book", "title": "Emma"]).status
                    == .unprocessableContent)
            #expect(
                try await alice.send(.post, "/api/v1/titles", json: ["kind": "movie", "title": ""]).status
                    == .unprocessableContent)
            #expect(
                try await alice.send(.post, "/api/v1/titles", json: ["kind": "movie", "ids": ["wikidata": "Q1 OR 1"]])
                    .status == .badRequest)

            let bob = try await LibraryAPITests.signedIn(client, "bob")
            for path in ["", "/viewings", "/episodes"] {
                #expect(try await bob.get("/api/v1/titles/\(filmID)\(path)").status == .notFound, "\(path)")
            }
            #expect(
                try await bob.send(.patch, "/api/v1/titles/\(filmID)", json: ["favourite": true]).status == .notFound)
            #expect(try await bob.send(.delete, "/api/v1/titles/\(filmID)").status == .notFound)
            #expect(try await bob.get("/api/v1/titles").json?["total"] as? Int == 0)
            #expect(try await alice.get("/api/v1/titles/\(filmID)").json?["favourite"] as? Bool == false)
        }
    }

    @Test func withoutATokenAFilmIsAddedWithTheIDsItsSearchResultCarries() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let api = try await LibraryAPITests.signedIn(client)
                let found = try await api.get("/api/v1/titles/search?q=dune&kind=movie")
                let result = try #require((found.json?["results"] as? [[String: Any]])?.first)
                #expect(result["source"] as? String == "wikidata")
                // A client that knows the film's TMDB id too (Wikidata's details carry it) sends both: a server
                // without a token asks Wikidata.
                var ids = try #require(result["ids"] as? [String: Any])
                ids["tmdb"] = 438631
                let added = try await api.send(.post, "/api/v1/titles", json: ["kind": "movie", "ids": ids])
                #expect(added.status == .created && added.json?["creators"] as? [String] == ["Denis Villeneuve"])
                #expect(
                    try await api.send(
                        .post, "/api/v1/titles",
                        json: ["kind": "movie", "ids": ["tmdb": 438631], "source": "tmdb"]
                    ).status == .notFound, "TMDB asked without a token knows nothing")
            }
        }
    }
}
