import Foundation

/// How many requests of one kind a key (an address, an account) may make: `perMinute` on average,
/// and up to a minute's worth at once.
package struct RateLimit: Sendable, Equatable {
    /// Requests per `periodMS` (a minute unless said otherwise).
    package var perMinute: Int
    var periodMS = 60_000

    package init(perMinute: Int) { self.perMinute = perMinute }

    /// `count` a day, all of them at once if need be.
    static func perDay(_ count: Int) -> RateLimit {
        var limit = RateLimit(perMinute: count)
        limit.periodMS = 86_400_000
        return limit
    }

    /// Milliseconds one request adds to the key's schedule: at least one, so that a limit above one request a
    /// millisecond is a limit of one a millisecond with a burst of `perMinute`, never a limit of nothing at all.
    var intervalMS: Int { max(1, periodMS / Int(max(perMinute, 1))) }
    /// How far ahead of now the schedule may run before requests are refused.
    var windowMS: Int { intervalMS * Int(max(perMinute, 1)) }

    /// The generic cell rate algorithm: each request moves the key's theoretical arrival time (`tat`)
    /// one interval on; a request that would move it beyond the window is refused and moves nothing.
    func decide(tat: Int?, now: Int) -> (decision: RateLimitDecision, newTAT: Int?) {
        let next = max(tat ?? now, now) + intervalMS
        guard next - now > windowMS else { return (.allowed, next) }
        return (.limited(retryAfterSeconds: Self.seconds(next - now - windowMS)), nil)
    }

    static func seconds(_ milliseconds: Int) -> Int { max(1, Int((milliseconds + 999) / 1000)) }
}

/// Whether a request may go ahead.
enum RateLimitDecision: Sendable, Equatable {
    case allowed
    case limited(retryAfterSeconds: Int)
}
