import OpenAIStandIns
import ServiceLifecycle
import Synchronization
import Testing

/// The runner every loopback app of the tests runs under: an app that ends before it listens fails the test at once
/// (HummingbirdTesting's live runner waited for its port forever), and one that never stops fails its own test, not
/// the whole test process.
@Suite struct LoopbackAppTests {
    private struct FailsAtStart: Service {
        struct Broken: Error {}
        func run() async throws { throw Broken() }
    }

    private struct EndsAtStart: Service {
        func run() async throws {}
    }

    /// Listens, then waits for `parked` to let it go, deaf to shutdown and cancellation alike.
    private struct NeverStops: Service {
        let listening: @Sendable (Int) async -> Void
        let parked: Parked

        func run() async throws {
            await listening(1)
            await withCheckedContinuation { parked.hold($0) }
        }
    }

    private final class Parked: Sendable {
        private let held = Mutex<[CheckedContinuation<Void, Never>]>([])

        func hold(_ continuation: CheckedContinuation<Void, Never>) { held.withLock { $0.append(continuation) } }

        func release() {
            let waiting = held.withLock { held in
                defer { held.removeAll() }
                return held
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    @Test func anAppThatNeverStopsFailsItsTestAndTheOthersGoOn() async {
        // Given an app that ignores being asked to stop and being cancelled
        let parked = Parked()
        defer { parked.release() }
        // When its test is over, then the test fails with that, instead of the process ending
        await #expect(throws: LoopbackApp.DidNotStop.self) {
            try await LoopbackApp.run(
                stopLimits: .init(graceful: .milliseconds(50), cancelled: .milliseconds(50)),
                { listening in NeverStops(listening: listening, parked: parked) }, { _ in })
        }
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
