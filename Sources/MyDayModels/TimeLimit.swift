/// Thrown by `withTimeLimit` when the work did not finish in time (it has been cancelled).
public struct TimeLimitExceeded: Error, Equatable {
    public init() {}
}

/// Runs `work`, cancelling it and throwing `TimeLimitExceeded` if it has not finished within `limit`.
public func withTimeLimit<Value: Sendable>(
    _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimeLimitExceeded() }
        return value
    }
}
