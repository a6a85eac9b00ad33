import NIOCore
import Synchronization

/// The connections of each address that are still sending a request's head (or idle between requests), oldest
/// first. An address may keep `perAddress` of them; opening one more closes its oldest. One client holding hundreds
/// of half-sent requests, reopening each one the server closed, left `/health` answering 2 times out of 15: now it
/// holds at most `perAddress` places and everyone else's requests get through.
final class WaitingHeads: Sendable {
    /// Browsers keep about six idle connections per server; a house of phones and tabs stays far below this.
    static let defaultPerAddress = 32
    let perAddress: Int
    private let waiting = Mutex<[String: [(id: ObjectIdentifier, channel: any Channel)]]>([:])

    /// An address's share of `connections`: a quarter, and never more than `defaultPerAddress`.
    static func perAddress(ofConnections connections: Int) -> Int {
        max(2, min(defaultPerAddress, connections / 4))
    }

    init(perAddress: Int = WaitingHeads.defaultPerAddress) {
        self.perAddress = max(1, perAddress)
    }

    /// `channel`, from `address`, waits for a request head; returns the connection of the same address to close,
    /// if one must go.
    func startWaiting(_ channel: any Channel, from address: String) -> (any Channel)? {
        let id = ObjectIdentifier(channel)
        return waiting.withLock { waiting -> (any Channel)? in
            var list = waiting[address, default: []]
            guard !list.contains(where: { $0.id == id }) else { return nil }
            list.append((id, channel))
            let evicted = list.count > perAddress ? list.removeFirst().channel : nil
            waiting[address] = list
            return evicted
        }
    }

    /// `channel` has sent its head, or closed.
    func stopWaiting(_ channel: any Channel, from address: String) {
        let id = ObjectIdentifier(channel)
        waiting.withLock { waiting in
            guard var list = waiting[address] else { return }
            list.removeAll { $0.id == id }
            waiting[address] = list.isEmpty ? nil : list
        }
    }
}
