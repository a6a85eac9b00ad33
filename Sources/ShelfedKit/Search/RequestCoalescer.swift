/// Lets identical requests that arrive while one is in flight share its answer instead of each asking upstream.
actor RequestCoalescer<Value: Sendable> {
    private var inFlight: [String: Task<Value, any Error>] = [:]

    func value(for key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let running = inFlight[key] {
            return try await running.value
        }
        let task = Task { try await work() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        return try await task.value
    }
}
