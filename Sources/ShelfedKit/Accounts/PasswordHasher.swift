import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing on the blocking thread pool, so a sign-in never stalls other requests.
public struct PasswordHasher: Sendable {
    let cost: UInt8
    /// Verified against when the account does not exist, so unknown users take as long as wrong passwords.
    let decoyHash: String
    /// Where bcrypt runs: the composition root's blocking pool.
    let threadPool: NIOThreadPool

    public init(cost: UInt8, threadPool: NIOThreadPool = .singleton) {
        self.cost = cost
        self.threadPool = threadPool
        self.decoyHash = Bcrypt.hash("decoy password that matches nothing", cost: cost)
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await threadPool.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Checks `password` against `hash`, or against the decoy when there is no account, in the same time.
    public func verify(_ password: String, against hash: String?) async throws -> Bool {
        let target = hash ?? decoyHash
        let matches = try await threadPool.runIfActive { Bcrypt.verify(password, hash: target) }
        return hash != nil && matches
    }
}
