import Foundation

/// How long the upload queue waits after a failed attempt: exponential, capped, with jitter.
///
/// Attempt n waits `base · factorⁿ⁻¹` seconds (at most `maximum`), then a random part of up to
/// `jitter` of that is taken off, so many devices coming back online do not retry in step.
public struct Backoff: Sendable, Equatable {
    public var base: TimeInterval
    public var factor: Double
    public var maximum: TimeInterval
    /// The share of the delay that is random, 0…1.
    public var jitter: Double

    public init(base: TimeInterval = 2, factor: Double = 2, maximum: TimeInterval = 600, jitter: Double = 0.5) {
        self.base = base
        self.factor = factor
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The wait after `attempts` failures (1 for the first), given a random number in 0..<1.
    public func delay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        let exponent = Double(max(attempts, 1) - 1)
        let ceiling = min(maximum, base * pow(factor, exponent))
        return ceiling * (1 - jitter * random)
    }

    /// The wait, honouring the server's `Retry-After` when it asks for longer.
    public func delay(afterAttempts attempts: Int, retryAfter: TimeInterval?, random: Double) -> TimeInterval {
        max(delay(afterAttempts: attempts, random: random), retryAfter ?? 0)
    }
}
