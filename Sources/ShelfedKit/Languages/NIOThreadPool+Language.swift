import NIOPosix

extension NIOThreadPool {
    /// `body` on the pool, in the request's language: a task-local value does not follow the work onto the pool's
    /// threads, and what it says — an error's message, a line a page shows, built inside a database read — is read
    /// on a page.
    func runInLanguage<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        let language = Language.current
        return try await runIfActive { try Language.$current.withValue(language) { try body() } }
    }
}
