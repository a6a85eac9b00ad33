import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Photos of films and shows (issue 37): a scene or a ticket tied to a time in a film ("1:02:15") or an episode of
/// a show ("S2E3", "S2E3 12:04") where a book's photo has a page; checked against the title, kept when refused,
/// sorted by it, and the same through the API.
@Suite struct ScreenPhotoTests {
    @Test func momentsAreReadOnlyInTheirFormsAndWithinBounds() {
        func parsed(_ text: String, _ kind: TitleKind) -> PhotoMoment? {
            try? PhotoMoment.parse(text, for: kind).get()
        }
        #expect(parsed("1:02:15", .movie)?.seconds == 3_735)
        #expect(parsed("48:30", .movie)?.seconds == 2_910)
        #expect(parsed("0:45", .movie)?.text == "0:45")
        #expect(parsed("1:02:15", .movie)?.text == "1:02:15")
        #expect(parsed("S2E3", .show).map { [$0.season, $0.episode, $0.seconds] } == [2, 3, nil])
        #expect(parsed("s02e03", .show)?.text == "S2E3")
        #expect(parsed("2x03", .show)?.text == "S2E3")
        #expect(parsed("S0E1", .show)?.text == "S0E1")
        #expect(parsed("S2E3 12:04", .show)?.label == "S2E3 · 12:04")
        #expect(parsed("12:04", .show)?.seconds == 724)
        for refused in [
            "", "1:2:15", "1:02:60", "-1:00", "1e3", "S2E3 S2E4", "S2E3", "S2", "E3", "１:02:15", "S2E0",
            "99999999999999999999:00", "100:00:00", "S10000E1", String(repeating: "1", count: 25), "1:02:15 1:02:16",
        ] {
            #expect(parsed(refused, .movie) == nil, "\(refused) is not a film's time")
        }
        for refused in ["S2E3 12:04 1:00", "S99999E1", "S1E", "SxE1", "S2E3;", "s2 e3"] {
            #expect(parsed(refused, .show) == nil, "\(refused) is not a show's episode")
        }
        #expect(parsed("1:02:15", .book) == nil)
    }

    /// Adds TMDB's Dune (2021, 155 minutes) on Watched; returns its id.
    static func addFilm(_ web: WebSession) async throws -> Int64 {
        let added = try await web.post(
            "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "read"])
        return try #require(ScreenAddTests.bookID(from: added))
    }

    static func photos(_ app: TestApp, _ bookID: Int64) async throws -> [Photo] {
        try await app.database().writer.read { db in
            try Photo.filter(Column("book_id") == bookID).order(Column("id")).fetchAll(db)
        }
    }

    @Test func aFilmPhotoKeepsItsTimeCheckedAgainstTheRunningTime() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run(live: true) { client in
                let web = WebSession(client)
                try await web.register("alice")
                let film = try await Self.addFilm(web)
                let form = try await web.get("/books/\(film)/photos/new").text
                #expect(form.contains(#"<label for="moment">Time in the film"#))
                #expect(form.contains("It runs 2 h 35 min.") && !form.contains(#"name="page_number""#))
                #expect(form.contains("A scene, a ticket, a line you loved."))
                // A scene has halves, not pages.
                #expect(form.contains(">Left half</option>") && !form.contains("Left page"))

                let jpeg = try TestImages.fixture("Landscape_1.jpg")
                // Past the end: refused with the film's length, the typed time kept, nothing stored.
                let late = try await web.upload(
                    "/books/\(film)/photos", fields: [("moment", "3:10:00"), ("comment", "Shai-Hulud")],
                    files: [.init(data: jpeg)])
                #expect(late.status == .unprocessableContent)
                #expect(late.text.contains("This film runs 2 h 35 min; type a time within it."))
                #expect(late.text.contains(#"value="3:10:00""#) && late.text.contains("Shai-Hulud"))
                #expect(try await Self.photos(app, film).isEmpty)
                let garbled = try await web.upload(
                    "/books/\(film)/photos", fields: [("moment", "<b>1h</b>")], files: [.init(data: jpeg)])
                #expect(garbled.text.contains("Type the time like 1:02:15 or 48:30."))
                #expect(garbled.text.contains("&lt;b&gt;1h&lt;/b&gt;"))

                let saved = try await web.upload(
                    "/books/\(film)/photos", fields: [("moment", "1:02:15"), ("page_number", "42")],
                    files: [.init(data: jpeg)])
                #expect(saved.status == .seeOther)
                _ = try await web.upload(
                    "/books/\(film)/photos", fields: [("moment", "10:00")], files: [.init(data: jpeg)])
                let stored = try await Self.photos(app, film)
                // A page typed for a film is not its place.
                #expect(stored.map { [$0.momentSeconds, $0.pageNumber] } == [[3_735, nil], [600, nil]])

                let page = try await web.get("/photos/\(stored[0].id!)").text
                #expect(page.contains("<strong>1:02:15</strong>"))
                #expect(page.contains(#"id="moment" name="moment" value="1:02:15""#))
                #expect(page.contains(">Words in the photo</label>") && !page.contains("Words on the page"))
                let gallery = try await web.get("/books/\(film)/photos?sort=page").text
                #expect(gallery.contains("By time"))
                let first = try #require(gallery.range(of: "Photo from Dune, 10:00"))
                let second = try #require(gallery.range(of: "Photo from Dune, 1:02:15"))
                #expect(first.lowerBound < second.lowerBound)

                // Editing: a new time is checked the same way; clearing it leaves the photo without one.
                let edited = try await web.post("/photos/\(stored[0].id!)", ["moment": "2:50:00", "comment": "x"])
                #expect(edited.status == .unprocessableContent && edited.text.contains(#"value="2:50:00""#))
                _ = try await web.post("/photos/\(stored[0].id!)", ["moment": "", "comment": "x"])
                #expect(try await Self.photos(app, film)[0].moment == nil)
            }
        }
    }

    @Test func aShowPhotoNamesAnEpisodeTheShowHasThroughTheWebAndTheAPI() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run(live: true) { client in
                let web = WebSession(client)
                try await web.register("alice")
                let show = try await ShowEpisodeTests.add(web, "tvmaze", "44778")
                let form = try await web.get("/books/\(show)/photos/new").text
                #expect(form.contains(#"<label for="moment">Episode"#))
                let jpeg = try TestImages.fixture("Landscape_1.jpg")
                for (typed, message) in [
                    ("S3E1", "This show has no season 3 (seasons 1 to 2)."),
                    ("S1E9", "Season 1 has 4 episodes; type one from 1 to 4."),
                    ("1:02:15 S1E1 9:00", "Type the episode like S2E3, or S2E3 12:04 for a moment in it."),
                ] {
                    let refused = try await web.upload(
                        "/books/\(show)/photos", fields: [("moment", typed)], files: [.init(data: jpeg)])
                    #expect(refused.status == .unprocessableContent, "\(typed)")
                    #expect(refused.text.contains(message), "\(typed)")
                }
                let saved = try await web.upload(
                    "/books/\(show)/photos", fields: [("moment", "s02e03 12:04")], files: [.init(data: jpeg)])
                #expect(saved.status == .seeOther)
                let photo = try #require(try await Self.photos(app, show).first)
                #expect([photo.momentSeason, photo.momentEpisode, photo.momentSeconds] == [2, 3, 724])
                #expect(try await web.get("/photos/\(photo.id!)").text.contains("<strong>S2E3 · 12:04</strong>"))
                #expect(try await web.get("/books/\(show)/photos").text.contains("By episode"))

                // The API answers the moment as text and changes it under the same rules.
                var api = APIClient(client)
                try await api.signIn("alice@example.com")
                let json = try await api.get("/api/v1/photos/\(photo.id!)").json?["photo"] as? [String: Any]
                #expect(json?["moment"] as? String == "S2E3 12:04" && json?["page_number"] is NSNull)
                // A page number for a show's photo is refused, not dropped without a word.
                let paged = try await api.send(.patch, "/api/v1/photos/\(photo.id!)", json: ["page_number": 12])
                #expect(paged.status == .unprocessableContent)
                #expect(paged.text.contains("A TV show's photo has a moment, not a page"))
                let changed = try await api.send(.patch, "/api/v1/photos/\(photo.id!)", json: ["moment": "S1E2"])
                #expect((changed.json?["photo"] as? [String: Any])?["moment"] as? String == "S1E2")
                let missing = try await api.send(.patch, "/api/v1/photos/\(photo.id!)", json: ["moment": "S9E1"])
                #expect(missing.status == .unprocessableContent)
                let cleared = try await api.send(.patch, "/api/v1/photos/\(photo.id!)", json: ["moment": NSNull()])
                #expect((cleared.json?["photo"] as? [String: Any])?["moment"] is NSNull)
                let uploaded = try await api.upload(
                    "/api/v1/books/\(show)/photos", fields: [("moment", "S1E4")], files: [.init(data: jpeg)])
                #expect(uploaded.status == .created)
                #expect((uploaded.json?["photos"] as? [[String: Any]])?.first?["moment"] as? String == "S1E4")
            }
        }
    }
}
