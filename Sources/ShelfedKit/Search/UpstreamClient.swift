import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Why a call to a book provider did not give an answer, in the terms the retry policy needs.
public enum UpstreamFailure: Error, Sendable, Equatable {
    case timeout
    /// The connection could not be made at all: refused, no route, no name, or no answer to the connect within
    /// `OutboundHTTP.connectTimeout`. A house without internet gives this on every call, so it is never retried and
    /// opens the breaker at once (the next searches answer from the cache and the library without waiting).
    case unreachable
    case network
    case serverError(status: Int)
    /// 429. `retryAfter` is the provider's `Retry-After` in seconds; `dailyQuota` means tomorrow at the earliest.
    case rateLimited(retryAfter: Int?, dailyQuota: Bool)
    /// 403 and other refusals that will not change by asking again.
    case refused(status: Int)
    case notFound
    case malformed
    case tooLarge
    /// The circuit breaker of `provider` is open; it is not asked until `retryAfterMilliseconds` pass.
    case circuitOpen(provider: String, retryAfterMilliseconds: Int)

    /// Worth another try after a short wait (timeouts, network errors, 5xx).
    var isTransient: Bool {
        switch self {
        case .timeout, .network, .serverError: true
        default: false
        }
    }

    /// Counts against the provider's health; a missing book is an answer, not a failure, and a refusal of
    /// what we asked (400, 413, 414, 422: a query a user made too long, say) says nothing about the provider. Nor does
    /// a refused credential (401: a mistyped TMDB token must not shut TMDB off for the house) or an answer too large
    /// to take (a soap opera's season).
    var countsAsFailure: Bool {
        switch self {
        case .notFound, .circuitOpen, .tooLarge: false
        case .refused(let status) where [400, 401, 413, 414, 422].contains(status): false
        default: true
        }
    }
}

extension UpstreamFailure {
    /// `unreachable` when `error` says no connection was made, `network` for a connection lost on the way.
    static func connecting(failedWith error: any Error) -> UpstreamFailure {
        switch error {
        case let error as HTTPClientError where error == .connectTimeout: return .unreachable
        case is NIOConnectionError, ChannelError.connectTimeout: return .unreachable
        case let error as IOError where Self.unreachableErrnos.contains(error.errnoCode): return .unreachable
        default: return .network
        }
    }

    private static let unreachableErrnos: Set<Int32> = [
        ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN, ETIMEDOUT,
    ]
}

/// GETs from a provider with a deadline and a cap on the body, sorting every outcome into `UpstreamFailure`.
struct UpstreamClient: Sendable {
    /// The outbound client, injected from the composition root (tests could hand in another); asked for only when a
    /// provider is called, so a server that never searches never starts one.
    let http: @Sendable () -> HTTPClient
    let timeout: Duration
    let maxBodyBytes: Int
    static let userAgent = "Shelfed/1.0 (self-hosted reading tracker; https://github.com/shelfed)"

    /// `headers` adds to the user agent and `Accept`: TMDB's token goes in `Authorization`, never in the URL (which
    /// a log line might show).
    func get(_ url: String, headers: [(String, String)] = []) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(contentsOf: headers)
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await http().execute(request, timeout: .nanoseconds(Int64(timeout.seconds * 1e9)))
            body = try await response.body.collect(upTo: maxBodyBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw UpstreamFailure.timeout
        } catch is NIOTooManyBytesError {
            throw UpstreamFailure.tooLarge
        } catch {
            throw UpstreamFailure.connecting(failedWith: error)
        }
        let data = Data(buffer: body)
        switch response.status.code {
        case 200..<300:
            return data
        case 404:
            throw UpstreamFailure.notFound
        case 429:
            let retryAfter = response.headers.first(name: "Retry-After").flatMap {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
            throw UpstreamFailure.rateLimited(retryAfter: retryAfter, dailyQuota: GoogleBooksError.isDailyQuota(data))
        case 500..<600:
            throw UpstreamFailure.serverError(status: Int(response.status.code))
        default:
            throw UpstreamFailure.refused(status: Int(response.status.code))
        }
    }
}
