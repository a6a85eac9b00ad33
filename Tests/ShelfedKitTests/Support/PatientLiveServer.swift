import Hummingbird
import NIOCore
import ServiceLifecycle

// `TestResponse`'s initializer and `TestApplication` (which reports the port it listens on) are internal to the
// testing module; debug builds compile it testable.
@testable import HummingbirdTesting

/// A live server on 127.0.0.1 whose client waits for an answer as long as the machine needs.
///
/// HummingbirdTesting's `.live` client gives up on a request after 20 s without a byte to read. In a full parallel
/// run on a two-core machine, several hundred test tasks share two cooperative threads, and a request that embeds
/// books, reads an upload or renders a page in the middle of them waited longer than that: CI failed with "I/O on
/// closed channel" in the meaning, text search and upload suites while the same tests passed alone. A request's
/// answer is what these tests check, not how fast a starved machine gives it, so the wait here is ten minutes — still
/// bounded, and far past anything but a server that hangs. (The server's own limit on a connection's wait is raised
/// to match in `TestApp`.)
enum PatientLiveServer {
    static let readTimeout = Duration.seconds(600)

    struct Client: TestClientProtocol {
        let client: TestClient

        func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?)
            async throws -> TestResponse
        {
            var headers = headers
            headers[.connection] = "keep-alive"
            let response = try await client.execute(
                TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body))
            return TestResponse(
                head: response.head, body: response.body ?? ByteBuffer(), trailerHeaders: response.trailerHeaders)
        }

        var port: Int? { client.port }
    }

    /// Starts `app` on a free port, runs `body` with a client connected to it, then shuts the server down.
    static func run<App: ApplicationProtocol, Value: Sendable>(
        _ app: App, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let application = TestApplication(base: app)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(
                configuration: .init(services: [application], logger: application.logger))
            group.addTask { try await services.run() }
            let port = await application.portPromise.wait()
            let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: readTimeout))
            client.connect()
            let result: Result<Value, any Error>
            do {
                result = .success(try await body(Client(client: client)))
            } catch {
                result = .failure(error)
            }
            try await client.shutdown()
            await services.triggerGracefulShutdown()
            return try result.get()
        }
    }
}
