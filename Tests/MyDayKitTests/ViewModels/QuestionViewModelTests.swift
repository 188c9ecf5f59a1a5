import Foundation
import Synchronization
import Testing

@testable import MyDayKit

@MainActor
@Suite struct QuestionViewModelTests {
    let harness = CoreHarness()

    @Test func itAsksOnlyWhenTurnedOnAndOnceADayAfterItIsDismissed() async throws {
        let defaults = try #require(UserDefaults(suiteName: "myday-question-\(UUID().uuidString)"))
        let now = Mutex(try Date("2026-11-27T10:00:00Z", strategy: .iso8601))
        let asked = Mutex(0)
        var client = FakeMyDayClient()
        client.onQuestion = { zone in
            #expect(zone == "Europe/Paris")
            asked.withLock { $0 += 1 }
            return DiaryQuestion(
                text: "Yesterday you mentioned “flight to Lisbon”. How did it go?", phrase: "flight to Lisbon", entryID: UUID(),
                date: "2026-11-26")
        }
        let model = QuestionViewModel(
            core: harness.core(client), timeZone: Given.paris, defaults: defaults, now: { now.withLock { $0 } })
        // Off until turned on: the server is not even asked
        await model.load()
        #expect(model.question == nil && asked.withLock { $0 } == 0)
        model.isOn = true
        await model.load()
        #expect(model.question?.phrase == "flight to Lisbon")
        // Dismissed, it stays away for the rest of the day, and comes back the next
        model.dismiss()
        await model.load()
        #expect(model.question == nil && asked.withLock { $0 } == 1)
        now.withLock { $0 = $0.addingTimeInterval(24 * 3600) }
        await model.load()
        #expect(model.question != nil && asked.withLock { $0 } == 2)
        // Turned off, it goes at once
        model.isOn = false
        #expect(model.question == nil)
    }
}
