import Foundation

/// Runs blocking work (a socket read, a file that may block) on a thread of its own, so that it never holds one of
/// the cooperative pool's few threads, and awaits its result.
package func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
