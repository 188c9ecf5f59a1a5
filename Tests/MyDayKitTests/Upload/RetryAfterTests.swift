import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

@Suite struct RetryAfterTests {
    @Test func readsSecondsAndHTTPDates() throws {
        let now = try Date("2026-11-21T10:00:00Z", strategy: .iso8601)
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds("Sat, 21 Nov 2026 10:01:30 GMT", now: now) == 90)
        #expect(RetryAfter.seconds("Sat, 21 Nov 2026 09:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds(nil, now: now) == nil)
    }
}
