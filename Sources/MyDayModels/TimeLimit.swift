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

/// The value of `task` if it ends within `limit`; nil if it does not, and the task is left running. (Awaiting
/// `task.value` directly waits as long as the task runs, whatever cancellation says.)
public func value<Value: Sendable>(of task: Task<Value, Never>, within limit: Duration) async -> Value? {
    let (ended, end) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
    Task {
        end.yield(await task.value)
        end.finish()
    }
    // Waiting on the stream ends at once when the time limit cancels it.
    return try? await withTimeLimit(limit) { await ended.first { _ in true } }
}
