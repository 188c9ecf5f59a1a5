import OpenAIStandIns
import ServiceLifecycle
import Testing

/// The runner every loopback app of the tests runs under: an app that ends before it listens fails the test at once
/// (HummingbirdTesting's live runner waited for its port forever).
@Suite struct LoopbackAppTests {
    private struct FailsAtStart: Service {
        struct Broken: Error {}
        func run() async throws { throw Broken() }
    }

    private struct EndsAtStart: Service {
        func run() async throws {}
    }

    @Test func anAppThatFailsBeforeListeningFailsTheTestWithItsError() async {
        await #expect(throws: FailsAtStart.Broken.self) {
            try await LoopbackApp.run({ _ in FailsAtStart() }, { _ in Issue.record("the test ran without a listening app") })
        }
    }

    @Test func anAppThatEndsBeforeListeningFailsTheTest() async {
        await #expect(throws: (any Error).self) {
            try await LoopbackApp.run({ _ in EndsAtStart() }, { _ in Issue.record("the test ran without a listening app") })
        }
    }
}
