import Foundation

/// Counts requests per key. One API node keeps the counts in memory; API nodes that share a
/// PostgreSQL database count in it, so that two nodes do not double the limit.
protocol RequestCounter: Sendable {
    /// Counts one request for `key` unless the limit is reached.
    func consume(_ key: String, limit: RateLimit) async throws -> RateLimitDecision
    /// Whether one more request for `key` would be allowed, counting nothing.
    func check(_ key: String, limit: RateLimit) async throws -> RateLimitDecision
}
