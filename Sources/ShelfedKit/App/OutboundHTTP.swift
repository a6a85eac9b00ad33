import AsyncHTTPClient
import Foundation
import NIOCore

/// The process's one client for calls out (Google Books, Open Library, covers, Gemini), made on first use.
///
/// `HTTPClient.shared` waits up to 90 s to connect and keeps retrying a refused connection until the request's own
/// deadline, so on a Pi without internet every search waited for its whole timeout, three times. This one gives up
/// on a connection after `connectTimeout` and reports a refused one at once; the retry policy and the circuit
/// breaker decide what happens next.
enum OutboundHTTP {
    /// Two seconds, or `SHELFED_CONNECT_TIMEOUT` (checked at start by `AppConfig.fromEnvironment`): a slow link may
    /// want longer, and the test run, whose fakes on 127.0.0.1 wait for a free core, sets thirty.
    static let connectTimeout = TimeAmount.seconds(
        ProcessInfo.processInfo.environment["SHELFED_CONNECT_TIMEOUT"]
            .flatMap { BoundedNumber.parse($0, in: connectTimeoutRange) }.map(Int64.init) ?? 2)
    static let connectTimeoutRange = 1...120

    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.timeout = .init(connect: connectTimeout, read: .seconds(30))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.idleTimeout = .seconds(60)
        // Never shut down: it lives as long as the process, as `HTTPClient.shared` does.
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
