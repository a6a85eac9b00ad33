import NIOCore
import Synchronization

/// Counts the live event streams (an import's progress) held open, per person and in all: each keeps a connection
/// for up to ten minutes, and 33 tabs of one account took every connection the server had.
final class LiveStreams: Sendable {
    /// Streams one person may hold at once: a few tabs and the phone app.
    static let perPerson = 4
    let total: Int
    private let open = Mutex<(byUser: [Int64: Int], all: Int)>(([:], 0))

    /// `total`: all streams together, a quarter of the connections so that pages always have the rest.
    init(total: Int) {
        self.total = max(Self.perPerson, total)
    }

    /// A place for one more stream of `userID`'s, given back when the ticket is dropped (the stream ended, its
    /// client left, or its answer was never sent); 429 with a wait when the person or the server is at the limit.
    /// A refused stream's `connection` is closed once the 429 is sent (issue 35): kept alive, 30 refused tabs held
    /// 30 connections and `/health` went unanswered. Closing its reading side ends the connection after the answer.
    func ticket(for userID: Int64, connection: any Channel) throws -> LiveStreamTicket {
        let granted = open.withLock { open -> Bool in
            guard open.byUser[userID, default: 0] < Self.perPerson, open.all < total else { return false }
            open.byUser[userID, default: 0] += 1
            open.all += 1
            return true
        }
        guard granted else {
            connection.close(mode: .input, promise: nil)
            throw AppError.rateLimited(
                "Too many live progress views are open at once. Close a few tabs showing an import; this "
                    + "page also updates when you reload it.", retryAfter: 30)
        }
        return LiveStreamTicket { [self] in
            open.withLock { open in
                open.byUser[userID, default: 1] -= 1
                if open.byUser[userID] == 0 { open.byUser[userID] = nil }
                open.all -= 1
            }
        }
    }

    /// Streams open now: for tests.
    var count: Int { open.withLock { $0.all } }
}

/// One stream's place; released exactly once, when the last reference goes.
final class LiveStreamTicket: Sendable {
    private let release: @Sendable () -> Void

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    deinit {
        release()
    }
}
