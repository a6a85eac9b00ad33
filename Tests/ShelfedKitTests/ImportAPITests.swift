import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// DESIGN §6 "Jobs": the BooksTrack app's import endpoints, through the real router with the runner running.
@Suite struct ImportAPITests {
    static func file(_ name: String) throws -> WebSession.FilePart {
        .init(
            field: "file", filename: name, contentType: "text/csv",
            data: try Data(contentsOf: TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/imports/\(name)")))
    }

    static func data(_ response: TestResponse) -> [String: Any] {
        response.json?["data"] as? [String: Any] ?? [:]
    }

    /// Polls the status until the job has finished.
    static func finished(_ api: APIClient, _ jobID: String) async throws -> [String: Any] {
        for _ in 0..<1200 {
            let status = Self.data(try await api.get("/api/v2/imports/\(jobID)"))
            if ["completed", "failed", "canceled"].contains(status["status"] as? String) { return status }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the job did not finish")
        return [:]
    }

    @Test func aJobRunsReportsAndStreamsItsEnd() async throws {
        try await TestApp().run { client in
            let api = try await LibraryAPITests.signedIn(client)
            let started = try await api.upload(
                "/api/v2/imports", files: [try Self.file("goodreads_library_export.csv")])
            #expect(started.status == .accepted)
            #expect(started.json?["success"] as? Bool == true)
            let jobID = try #require(Self.data(started)["jobId"] as? String)
            #expect(ImportJob.isWellFormedID(jobID))
            #expect((Self.data(started)["authToken"] as? String)?.count == 64)

            let status = try await Self.finished(api, jobID)
            #expect(status["status"] as? String == "completed")
            #expect(status["progress"] as? Double == 1)
            #expect(status["totalCount"] as? Int == 358 && status["processedCount"] as? Int == 358)

            let results = Self.data(try await api.get("/api/v2/imports/\(jobID)/results"))
            #expect(results["booksCreated"] as? Int == 358)
            #expect(results["booksUpdated"] as? Int == 0 && results["duplicatesSkipped"] as? Int == 0)
            #expect((results["errors"] as? [Any])?.isEmpty == true)
            let books = try #require(results["books"] as? [[String: Any]])
            #expect(books.count == 358)
            #expect(books.contains { $0["title"] as? String == "The Seven Winters of Ada Quill" })

            let stream = try await api.get("/api/v2/imports/\(jobID)/stream")
            #expect(stream.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            let text = String(buffer: stream.body)
            #expect(text.contains("id: 359\nevent: completed\n"))
            // A client that already had the final event hears nothing more.
            let replay = try await api.send(
                .get, "/api/v2/imports/\(jobID)/stream", headers: [HTTPField.Name("Last-Event-ID")!: "359"])
            #expect(!String(buffer: replay.body).contains("event:"))

            // The same file again: nothing new (every row a duplicate).
            let again = try await api.upload(
                "/api/v2/imports", files: [try Self.file("goodreads_library_export.csv")])
            let secondID = try #require(Self.data(again)["jobId"] as? String)
            _ = try await Self.finished(api, secondID)
            let second = Self.data(try await api.get("/api/v2/imports/\(secondID)/results"))
            #expect(second["booksCreated"] as? Int == 0 && second["duplicatesSkipped"] as? Int == 358)
        }
    }

    @Test func jobsBelongToTheirUserAndCancelNeedsTheTokenOrTheOwnersKey() async throws {
        try await TestApp().run { client in
            let alice = try await LibraryAPITests.signedIn(client, "alice")
            let bob = try await LibraryAPITests.signedIn(client, "bob")
            let started = try await alice.upload(
                "/api/v2/imports", files: [try Self.file("goodreads_shelves_and_lists.csv")])
            let jobID = try #require(Self.data(started)["jobId"] as? String)
            let token = try #require(Self.data(started)["authToken"] as? String)

            for path in [
                "/api/v2/imports/\(jobID)", "/api/v2/imports/\(jobID)/results", "/api/v2/imports/\(jobID)/stream",
            ] {
                let answer = try await bob.get(path)
                #expect(answer.status == .notFound, "\(path)")
                #expect((answer.json?["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            }
            #expect(try await bob.send(.delete, "/v1/jobs/\(jobID)").status == .notFound)
            var stranger = APIClient(client)
            stranger.key = String(repeating: "a", count: 40)
            #expect(try await stranger.send(.delete, "/v1/jobs/\(jobID)").status == .unauthorized)
            #expect(try await APIClient(client).get("/api/v2/imports/\(jobID)").status == .unauthorized)
            #expect(try await APIClient(client).upload("/api/v2/imports", files: []).status == .unauthorized)

            var holder = APIClient(client)
            holder.key = token
            let canceled = try await holder.send(.delete, "/v1/jobs/\(jobID)")
            #expect(canceled.status == .ok)
            #expect(Self.data(canceled)["jobId"] as? String == jobID)
            // Cancelled, or already finished if the runner was quicker: either way a final status.
            #expect(["canceled", "completed"].contains(Self.data(canceled)["status"] as? String))
            #expect(try await alice.send(.delete, "/v1/jobs/\(jobID)").status == .ok)
        }
    }

    @Test func anUnknownCSVOrNoFileIsABadRequest() async throws {
        try await TestApp().run { client in
            let api = try await LibraryAPITests.signedIn(client)
            let unknown = try await api.upload(
                "/api/v2/imports",
                files: [.init(field: "file", filename: "x.csv", contentType: "text/csv", data: Data("a,b\n1,2\n".utf8))]
            )
            #expect(unknown.status == .badRequest)
            #expect((unknown.json?["error"] as? [String: Any])?["code"] as? String == "INVALID_REQUEST")
            #expect(try await api.upload("/api/v2/imports", files: []).status == .badRequest)
            #expect(try await api.get("/api/v2/imports/0123").status == .notFound)
        }
    }

    @Test func batchEnrichLooksUpEachBarcodeAndAddsTheBooksToWantToRead() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let api = try await LibraryAPITests.signedIn(client)
                let started = try await api.send(
                    .post, "/api/batch-enrich",
                    json: [
                        "barcodes": ["9780804720991", "0-14-044604-4", "9780804720991", "12345<b>", "9783868943238"]
                    ])
                #expect(started.status == .accepted)
                let jobID = try #require(Self.data(started)["jobId"] as? String)
                #expect((Self.data(started)["authToken"] as? String)?.count == 64)

                let status = try await Self.finished(api, jobID)
                #expect(status["status"] as? String == "completed")
                #expect(status["pipeline"] as? String == "batch-enrich")
                #expect(status["totalCount"] as? Int == 5 && status["processedCount"] as? Int == 5)

                let results = Self.data(try await api.get("/api/v2/imports/\(jobID)/results"))
                #expect(results["booksCreated"] as? Int == 2)
                #expect(results["duplicatesSkipped"] as? Int == 1)
                #expect(results["enrichmentSucceeded"] as? Int == 3 && results["enrichmentFailed"] as? Int == 2)
                let errors = try #require(results["errors"] as? [[String: Any]])
                #expect(errors.map { $0["row"] as? Int } == [4, 5])
                #expect(errors.first?["isbn"] is NSNull)
                #expect((errors.first?["error"] as? String)?.contains("is not an ISBN") == true)
                #expect(errors.last?["isbn"] as? String == "9783868943238")
                let books = try #require(results["books"] as? [[String: Any]])
                #expect(books.map { $0["isbn13"] as? String } == ["9780804720991", "9780140446043", "9780804720991"])
                #expect((books.first?["coverUrl"] as? String)?.hasPrefix("/covers/") == true)

                // On the Want to read shelf, each once.
                let shelf = try await api.get("/api/v1/books?shelf_id=1")
                let titles = ((shelf.json?["books"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
                #expect(titles.sorted() == ["Discourse Networks 1800/1900", "The Complete Essays"])

                // The owner sees the batch among their imports, its failed barcodes escaped and without a fix form.
                let web = WebSession(client)
                _ = try await web.login("alice")
                let page = String(buffer: try await web.get("/import/\(jobID)").body)
                #expect(page.contains("Barcodes from the phone app"))
                #expect(page.contains("These barcodes were not added"))
                #expect(page.contains("12345&lt;b&gt;") && !page.contains("12345<b>"))
                #expect(!page.contains("Try this row again"))
                #expect(try await web.post("/import/\(jobID)/rows/4", ["cell_0": "9780804720991"]).status == .notFound)

                // Another person cannot see the job.
                let other = try await LibraryAPITests.signedIn(client, "bob")
                #expect(try await other.get("/api/v2/imports/\(jobID)").status == .notFound)
                #expect(try await other.get("/api/v2/imports/\(jobID)/results").status == .notFound)
            }
        }
    }

    @Test func batchEnrichRefusesWhatItCannotRun() async throws {
        try await TestApp().run { client in
            let api = try await LibraryAPITests.signedIn(client)
            for body: Any in [
                ["barcodes": [String]()], ["barcodes": Array(repeating: "9780804720991", count: 101)],
                ["barcodes": [String(repeating: "9", count: 33)]], ["barcodes": "9780804720991"], ["isbns": ["1"]],
            ] {
                let answer = try await api.send(.post, "/api/batch-enrich", json: body)
                #expect(answer.status == .badRequest, "\(body)")
                #expect((answer.json?["error"] as? [String: Any])?["code"] as? String == "INVALID_REQUEST")
            }
            #expect(
                try await APIClient(client).send(.post, "/api/batch-enrich", json: ["barcodes": ["1"]]).status
                    == .unauthorized)
        }
    }
}
