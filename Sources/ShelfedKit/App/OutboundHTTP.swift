import AsyncHTTPClient
import NIOCore

/// The process's one client for calls out (Google Books, Open Library, covers, Gemini), made on first use.
///
/// `HTTPClient.shared` waits up to 90 s to connect and keeps retrying a refused connection until the request's own
/// deadline, so on a Pi without internet every search waited for its whole timeout, three times. This one gives up
/// on a connection after `connectTimeout` and reports a refused one at once; the retry policy and the circuit
/// breaker decide what happens next.
enum OutboundHTTP {
    static let connectTimeout = TimeAmount.seconds(2)

    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.timeout = .init(connect: connectTimeout, read: .seconds(30))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.idleTimeout = .seconds(60)
        // Never shut down: it lives as long as the process, as `HTTPClient.shared` does.
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
