import Foundation

/// Counts failed sign-ins per account and per client address over a sliding window; after `limit`
/// failures in `window`, further attempts are refused until the oldest failure ages out.
public actor LoginThrottle {
    let limit: Int
    let window: TimeInterval
    private var failures: [String: [Date]] = [:]

    public init(limit: Int = 10, window: TimeInterval = 15 * 60) {
        self.limit = limit
        self.window = window
    }

    /// When attempts for this account or address may resume, or nil when they may go ahead now.
    public func blockedUntil(account: String, address: String, now: Date) -> Date? {
        let keys = [Self.accountKey(account), Self.addressKey(address)]
        return keys.compactMap { key -> Date? in
            let recent = prune(key, now: now)
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return oldest.addingTimeInterval(window)
        }.max()
    }

    public func recordFailure(account: String, address: String, now: Date) {
        for key in [Self.accountKey(account), Self.addressKey(address)] {
            failures[key, default: []].append(now)
        }
    }

    /// A successful sign-in clears the account's count (the address keeps its own).
    public func recordSuccess(account: String) {
        failures[Self.accountKey(account)] = nil
    }

    private func prune(_ key: String, now: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private static func accountKey(_ login: String) -> String { "account:" + login.lowercased() }
    private static func addressKey(_ address: String) -> String { "address:" + address }
}
