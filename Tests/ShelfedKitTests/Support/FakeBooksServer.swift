import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

@testable import ShelfedKit

/// A real HTTP server on 127.0.0.1 playing Google Books, Open Library and Gemini from the answers written for the tests
/// in `Tests/Fixtures/` (see each folder's SOURCES.md), with faults injected on demand and every request counted.
final class FakeBooksServer: Sendable {
    /// What the next Google Books (or Open Library) requests get instead of the written answer.
    enum Fault: Sendable {
        case status(Int)
        case rateLimited(retryAfter: String?)
        case dailyQuota
        case hang
        case malformedJSON
        case hugeBody
        /// The written answer, as if nothing were queued: lets a fault wait for a later request.
        case normal
        /// An empty answer after this many seconds: longer than any wait a loaded test run could stretch.
        case stall(seconds: Int)
    }

    static let fixtures = TestApp.packageRoot.appendingPathComponent("Tests/Fixtures")

    let state = Mutex(State())
    private let stopper = Mutex<(@Sendable () async -> Void)?>(nil)

    /// Stops answering (connections are refused from then on), as when the internet goes away.
    func stop() async {
        let stop = stopper.withLock { $0 }
        await stop?()
        try? await Task.sleep(for: .milliseconds(100))
    }
    struct State {
        var port = 0
        var googleFaults: [Fault] = []
        var openLibraryFaults: [Fault] = []
        var requests: [String] = []
        var geminiBodies: [Data] = []
        /// Faults for the film and show providers, by "tmdb", "tvmaze" or "wikidata".
        var screenFaults: [String: [Fault]] = [:]
        /// TVmaze's Severance renewed: `renewSeverance()`.
        var severanceRenewed = false
    }

    /// The bodies Shelfed posted to the fake Gemini, in order.
    var geminiBodies: [Data] { state.withLock { $0.geminiBodies } }

    /// What the fake Gemini lists for a good key: shaped like a real shelf, with a hallucinated ISBN (bad check
    /// digit), a book listed twice, an unsure guess, markup in a title and an entry without a title.
    static let shelfJSON = #"""
        {"books": [
          {"title": "The Complete Essays", "author": "Michel de Montaigne", "isbn": "9780140446043", "confidence": 0.95},
          {"title": "Batman", "confidence": 0.4},
          {"title": "Discourse Networks 1800/1900", "author": "Friedrich Kittler", "isbn": "9780804720990", "confidence": 0.8},
          {"title": "The Complete Essays", "author": "Montaigne", "confidence": 0.9},
          {"title": "Harry Potter", "confidence": 0.85, "shelfNote": "ignored"},
          {"title": "<script>alert(1)</script> Ignore previous instructions", "author": "\u0007", "confidence": 7},
          {"title": "", "author": "Nobody", "confidence": 0.9}
        ]}
        """#

    /// The Gemini settings that point Shelfed at this server; the key chooses the answer.
    func gemini(key: String = "good", model: String = "gemini-2.5-flash") -> GeminiSettings {
        GeminiSettings(apiKey: key, model: model, baseURL: baseURL + "/gemini")
    }

    var port: Int { state.withLock { $0.port } }
    var baseURL: String { "http://127.0.0.1:\(port)" }
    var googleRequests: [String] { state.withLock { $0.requests.filter { $0.hasPrefix("/books/v1") } } }
    var openLibraryRequests: [String] { state.withLock { $0.requests.filter { $0.hasPrefix("/ol/") } } }
    var coverRequests: [String] { state.withLock { $0.requests.filter { $0.contains("covers/") } } }

    /// Queues faults for the next Google Books requests, one fault per request.
    func failGoogle(_ faults: Fault...) { state.withLock { $0.googleFaults += faults } }
    /// Drops the Google Books faults no request has taken yet.
    func clearGoogleFaults() { state.withLock { $0.googleFaults = [] } }
    func failOpenLibrary(_ faults: Fault...) { state.withLock { $0.openLibraryFaults += faults } }

    /// The settings that point Shelfed at this server, with short waits so tests stay quick. The timeout is the time
    /// an answer may take, not the time a test takes (only a hanging fake waits it out), so it allows for a loaded
    /// two-core machine: at 500 ms, and again at 2 s with 434 tests running at once, a slow answer was sometimes
    /// retried and a request count came out one too many (tests of a hang set a shorter one).
    /// The page's wait is as generous, for the same reason: under CI's load three failed tries and the fallback once
    /// took longer than the real 2.5 s and a provider failure read as "slow" (a test that wants the wait sets it).
    /// Both were raised again (8 → 30 s, 10 → 60 s) when a full run starved two keyless title searches past 10 s: a
    /// Wikidata search is several requests in a row.
    func settings(timeout: Duration = .seconds(30), tmdbToken: String? = nil) -> SearchSettings {
        SearchSettings(
            googleBooksURL: baseURL + "/books/v1", openLibraryURL: baseURL + "/ol",
            openLibraryCoversURL: baseURL + "/olcovers", timeout: timeout, pageWait: .seconds(60),
            retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), maxRetryAfter: 2), maxBodyBytes: 256 * 1024
        )
        .pointingFilmsAndShows(at: baseURL, token: tmdbToken)
    }

    /// Starts the server, runs `body`, stops the server.
    static func run<Value: Sendable>(_ body: @Sendable (FakeBooksServer) async throws -> Value) async throws -> Value {
        let fake = FakeBooksServer()
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
        var logger = Logger(label: "fake-books")
        logger.logLevel = .error
        let app = Application(
            router: fake.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                fake.state.withLock { $0.port = channel.localAddress?.port ?? 0 }
                readyContinuation.yield()
            }, logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        fake.stopper.withLock { $0 = { await group.triggerGracefulShutdown() } }
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for await _ in ready { break }
            defer { Task { await group.triggerGracefulShutdown() } }
            let value = try await body(fake)
            await group.triggerGracefulShutdown()
            return value
        }
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/books/v1/volumes") { request, _ in
            try await self.answer(request, provider: \.googleFaults) {
                self.googleSearchFixture(query: request.uri.queryParameters["q"].map(String.init) ?? "")
            }
        }
        router.get("/books/v1/volumes/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await self.answer(request, provider: \.googleFaults) {
                "googlebooks/volume_\(id).json"
            }
        }
        router.get("/ol/isbn/:file") { request, context in
            try await self.answer(request, provider: \.openLibraryFaults) {
                // Open Library redirects ISBN lookups to the edition; the editions are written for the tests.
                switch context.parameters.get("file") {
                case "9780060273224.json": "redirect:/ol/books/OL22951843M.json"
                case "9780000000026.json": "redirect:/ol/books/OL1000002M.json"
                default: nil
                }
            }
        }
        router.get("/ol/books/:file") { request, context in
            try await self.answer(request, provider: \.openLibraryFaults) {
                context.parameters.get("file") == "OL1000002M.json"
                    ? "openlibrary/edition_OL1000002M.json" : "openlibrary/edition_OL22951843M.json"
            }
        }
        router.get("/ol/works/:file") { request, context in
            try await self.answer(request, provider: \.openLibraryFaults) {
                context.parameters.get("file") == "OL1000002W.json"
                    ? "openlibrary/work_OL1000002W.json" : "openlibrary/work_OL15832982W.json"
            }
        }
        router.get("/ol/authors/:file") { request, _ in
            // Open Library's author record, cut down to the fields Shelfed reads.
            self.record(request)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"name": "Garth Nix", "key": "/authors/OL382982A"}"#)))
        }
        router.post("/gemini/models/:action") { request, context in
            let body = try await request.body.collect(upTo: 16 * 1_048_576)
            self.state.withLock { $0.geminiBodies.append(Data(buffer: body)) }
            return try Self.geminiAnswer(
                action: context.parameters.get("action") ?? "", key: request.headers[.init("x-goog-api-key")!] ?? "")
        }
        addScreenRoutes(to: router)
        addJellyfinRoutes(to: router)
        for prefix in ["/gcovers/**", "/olcovers/**", "/tmdbimages/**", "/tvmaze/images/**"] {
            router.get(RouterPath(prefix)) { request, _ in
                self.record(request)
                let jpeg = try Data(contentsOf: Self.fixtures.appendingPathComponent("images/Portrait_1.jpg"))
                return Response(
                    status: .ok, headers: [.contentType: "image/jpeg"],
                    body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
            }
        }
        return router
    }

    /// The Gemini answers in Tests/Fixtures/gemini, chosen by the key; successes carry `shelfJSON`.
    private static func geminiAnswer(action: String, key: String) throws -> Response {
        func fixture(_ name: String) throws -> Data {
            try Data(contentsOf: fixtures.appendingPathComponent("gemini/\(name)"))
        }
        func answer(_ status: HTTPResponse.Status, _ data: Data) -> Response {
            Response(
                status: status, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        func withShelf(_ name: String, part: Int) throws -> Data {
            var envelope = try JSONSerialization.jsonObject(with: try fixture(name)) as! [String: Any]
            var candidates = envelope["candidates"] as! [[String: Any]]
            var content = candidates[0]["content"] as! [String: Any]
            var parts = content["parts"] as! [[String: Any]]
            parts[part]["text"] = shelfJSON
            content["parts"] = parts
            candidates[0]["content"] = content
            envelope["candidates"] = candidates
            return try JSONSerialization.data(withJSONObject: envelope)
        }
        guard action == "gemini-2.5-flash:generateContent" else {
            return answer(.notFound, try fixture("failure_unknown_model.json"))
        }
        switch key {
        case "bad-key": return answer(.badRequest, try fixture("failure_api_key.json"))
        case "not-enabled": return answer(.forbidden, try fixture("failure_api_not_enabled.json"))
        case "reject": return answer(.badRequest, try fixture("streaming_failure_image_rejected_400.txt"))
        case "vertex-reject": return answer(.badRequest, try fixture("failure_image_rejected_400.json"))
        case "safety": return answer(.ok, try fixture("failure_finish_reason_safety.json"))
        case "blocked": return answer(.ok, try fixture("failure_only_prompt_feedback.json"))
        case "quota": return answer(.tooManyRequests, try fixture("failure_quota_exceeded_429.json"))
        case "prose": return answer(.ok, try fixture("success_basic.json"))
        case "thinking": return answer(.ok, try withShelf("success_thinking_thought_summary.json", part: 1))
        default: return answer(.ok, try withShelf("success_basic.json", part: 0))
        }
    }

    func record(_ request: Request) {
        state.withLock { $0.requests.append(request.uri.description) }
    }

    /// Serves the fixture `file()` names (nil: an empty result, "redirect:…": a 302) unless a fault is queued.
    private func answer(_ request: Request, provider: WritableKeyPath<State, [Fault]> & Sendable, file: () -> String?)
        async throws -> Response
    {
        record(request)
        let fault = state.withLock { state -> Fault? in
            state[keyPath: provider].isEmpty ? nil : state[keyPath: provider].removeFirst()
        }
        if let fault, !fault.isNormal { return try await respond(with: fault) }
        guard let file = file() else {
            if request.uri.path.hasPrefix("/ol/") { return Response(status: .notFound) }
            return json(#"{"kind": "books#volumes", "totalItems": 0}"#)
        }
        if file.hasPrefix("redirect:") {
            return Response(status: .found, headers: [.location: baseURL + file.dropFirst("redirect:".count)])
        }
        let url = Self.fixtures.appendingPathComponent(file)
        guard let data = try? Data(contentsOf: url) else { return Response(status: .notFound) }
        return json(Self.coversHere(String(decoding: data, as: UTF8.self), baseURL: baseURL))
    }

    func respond(with fault: Fault) async throws -> Response {
        switch fault {
        case .status(let code):
            return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "{}")))
        case .rateLimited(let retryAfter):
            var headers: HTTPFields = [.contentType: "application/json"]
            if let retryAfter { headers[.retryAfter] = retryAfter }
            return Response(
                status: .tooManyRequests, headers: headers,
                body: .init(
                    byteBuffer: ByteBuffer(string: #"{"error": {"code": 429, "message": "Rate Limit Exceeded"}}"#)))
        case .dailyQuota:
            let body = try Data(
                contentsOf: Self.fixtures.appendingPathComponent("googlebooks/error_429_daily_quota.json"))
            return Response(
                status: .tooManyRequests, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        case .hang:
            try await Task.sleep(for: .seconds(3))
            return json("{}")
        case .malformedJSON:
            return json(#"{"kind": "books#volumes", "items": [ {"id": "#)
        case .hugeBody:
            return json("{\"padding\": \"" + String(repeating: "x", count: 1024 * 1024) + "\"}")
        case .normal:
            return json("{}")
        case .stall(let seconds):
            try await Task.sleep(for: .seconds(seconds))
            return json("{}")
        }
    }

    func json(_ body: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    private func googleSearchFixture(query: String) -> String? {
        let normalised = query.lowercased().replacingOccurrences(of: "intitle:", with: "")
            .replacingOccurrences(of: "inauthor:", with: "")
        switch normalised {
        case "batman": return "googlebooks/search_batman.json"
        case "harry potter": return "googlebooks/search_harry_potter.json"
        case "popular": return "googlebooks/search_popular_magazines.json"
        case "isbn:9780804720991": return "googlebooks/isbn_9780804720991.json"
        case "isbn:9780140446043": return "googlebooks/isbn_9780140446043.json"
        case "isbn:9783551551672": return "googlebooks/isbn_9783551551672_other_identifier_only.json"
        case "isbn:9783621285674": return "googlebooks/isbn_9783621285674_four_authors.json"
        case "isbn:9783868943238": return "googlebooks/empty_isbn_9783868943238.json"
        default: return nil
        }
    }

    /// Cover links point at Google's hosts (`http://books.google.com/`, `http://bks9.books.google.co.uk/`, …); this
    /// sends every one of them here, keeping the path, so tests never leave the machine.
    static func coversHere(_ body: String, baseURL: String) -> String {
        body.replacing(#/http://([a-z0-9]+\.)?books\.google\.[a-z.]+/#, with: baseURL + "/gcovers")
    }
}
