import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

@Suite struct BackoffTests {
    @Test func doublesFromTwoSecondsUpToTenMinutes() {
        // Given the default backoff without jitter (random 0), then the waits double and stop at the cap
        let backoff = Backoff()
        #expect((1...5).map { backoff.delay(afterAttempts: $0, random: 0) } == [2, 4, 8, 16, 32])
        #expect(backoff.delay(afterAttempts: 20, random: 0) == 600)
    }

    @Test func jitterTakesOffUpToHalf() {
        // Given attempt 3 (8 s), then the random part takes off between nothing and half
        let backoff = Backoff()
        #expect(backoff.delay(afterAttempts: 3, random: 0.999) > 4)
        #expect(backoff.delay(afterAttempts: 3, random: 0.5) == 6)
    }

    @Test func retryAfterIsHonouredWhenLonger() {
        let backoff = Backoff()
        #expect(backoff.delay(afterAttempts: 1, retryAfter: 30, random: 0) == 30)
        #expect(backoff.delay(afterAttempts: 6, retryAfter: 1, random: 0) == 64)
    }
}
