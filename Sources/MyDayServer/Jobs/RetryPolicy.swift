import Foundation

/// Exponential backoff with jitter: attempt n waits between half and all of `base · 2^(n-1)`, at most `maximum`.
struct RetryPolicy: Sendable {
    var base: Duration = .seconds(2)
    var maximum: Duration = .seconds(600)

    func delay(afterAttempt attempt: Int, jitter: Double = Double.random(in: 0.5...1)) -> Duration {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        let ceiling = min(base.seconds * pow(2, exponent), maximum.seconds)
        return .milliseconds(Int64(ceiling * jitter * 1000))
    }
}
