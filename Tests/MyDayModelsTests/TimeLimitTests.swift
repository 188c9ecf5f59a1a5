import MyDayModels
import Testing

/// Waiting for a task within a limit.
@Suite struct TimeLimitTests {
    @Test func aTaskThatEndsInTimeGivesItsValue() async {
        // Given a task that ends
        let task = Task { 42 }
        // Then waiting for it gives its value
        #expect(await value(of: task, within: .seconds(60)) == 42)
    }

    @Test func aTaskThatDoesNotEndIsLeftRunningAfterTheLimit() async {
        // Given a task that runs until the test lets it end
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            for await _ in gate {}
            return 42
        }
        // When it is waited for briefly, then nothing comes
        #expect(await value(of: task, within: .milliseconds(50)) == nil)
        // Then it still runs, and ends with its value once let go
        open.finish()
        #expect(await task.value == 42)
    }
}
