import Foundation

/// Counts requests per key. One API node keeps the counts in memory; API nodes that share a
/// PostgreSQL database count in it, so that two nodes do not double the limit.
protocol RequestCounter: Sendable {
    /// Counts one request for `key` unless the limit is reached.
    func consume(_ key: String, limit: RateLimit) async throws -> RateLimitDecision
    /// Gives back one request `consume` counted for `key` (it turned out not to count, as a right password).
    func giveBack(_ key: String, limit: RateLimit) async throws
}
