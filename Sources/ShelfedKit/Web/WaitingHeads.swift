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

    init(perAddress: Int = WaitingHeads.defaultPerAddress) {
        self.perAddress = max(1, perAddress)
    }

    /// `channel` waits for a request head; returns the connection of the same address to close, if one must go.
    func startWaiting(_ channel: any Channel) -> (any Channel)? {
        guard let address = Self.address(of: channel) else { return nil }
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
    func stopWaiting(_ channel: any Channel) {
        guard let address = Self.address(of: channel) else { return }
        let id = ObjectIdentifier(channel)
        waiting.withLock { waiting in
            guard var list = waiting[address] else { return }
            list.removeAll { $0.id == id }
            waiting[address] = list.isEmpty ? nil : list
        }
    }

    /// How many connections of `address` are waiting: for tests.
    func count(of address: String) -> Int {
        waiting.withLock { $0[address]?.count ?? 0 }
    }

    private static func address(of channel: any Channel) -> String? {
        channel.remoteAddress?.ipAddress
    }
}
