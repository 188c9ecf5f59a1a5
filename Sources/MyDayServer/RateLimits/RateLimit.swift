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

    /// Microseconds one request adds to the key's schedule: exact to the microsecond for every limit the settings
    /// allow (1,000,000 a minute is 60 µs), so a limit above one request a millisecond keeps its rate; never zero.
    var intervalMicros: Int { max(1, periodMS * 1000 / max(perMinute, 1)) }
    /// How far ahead of now (µs) the schedule may run before requests are refused.
    var windowMicros: Int { intervalMicros * max(perMinute, 1) }

    /// The generic cell rate algorithm: each request moves the key's theoretical arrival time (`tat`, µs since 1970)
    /// one interval on; a request that would move it beyond the window is refused and moves nothing. `now` is in µs.
    func decide(tat: Int?, now: Int) -> (decision: RateLimitDecision, newTAT: Int?) {
        let next = max(tat ?? now, now) + intervalMicros
        guard next - now > windowMicros else { return (.allowed, next) }
        return (.limited(retryAfterSeconds: Self.seconds(micros: next - now - windowMicros)), nil)
    }

    /// The clock rate limits count with by default: microseconds since 1970.
    @Sendable static func microsecondsNow() -> Int { Int(Date().timeIntervalSince1970 * 1_000_000) }

    static func seconds(micros: Int) -> Int { max(1, (micros + 999_999) / 1_000_000) }
}

/// Whether a request may go ahead.
enum RateLimitDecision: Sendable, Equatable {
    case allowed
    case limited(retryAfterSeconds: Int)
}
