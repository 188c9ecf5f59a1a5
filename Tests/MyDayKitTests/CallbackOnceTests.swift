import Foundation
import MyDayKit
import MyDayTestSupport
import Synchronization
import Testing

@Suite struct CallbackOnceTests {
    @Test func theFirstOutcomeFromTheOperationsQueueIsTheOnlyOne() async throws {
        // Given an operation that reports twice on its own queue
        let operation = CallbackOnce<String>()
        let value = try await operation.run {
            DispatchQueue.global().async {
                operation.finish(.success("first"))
                operation.finish(.success("second"))
            }
        }
        // Then the wait ends with the first
        #expect(value == "first")
    }

    @Test func cancellingTheWaitStopsTheOperationOnce() async throws {
        // Given an operation that never reports by itself
        let stops = Mutex(0)
        let operation = CallbackOnce<String>()
        let started = Mutex(false)
        let wait = Task {
            try await operation.run {
                operation.attach { stops.withLock { $0 += 1 } }
                started.withLock { $0 = true }
            }
        }
        try await pollUntil("the operation started") { started.withLock { $0 } }
        // When the wait is cancelled, then it ends with CancellationError and the operation is stopped once
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.value }
        operation.finish(.success("late"))
        #expect(stops.withLock { $0 } == 1)
    }

    @Test func anOperationAttachedAfterTheWaitWasCancelledIsStoppedAtOnce() async {
        // Given a wait cancelled before its operation began
        let stops = Mutex(0)
        let operation = CallbackOnce<Int>()
        let wait = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await operation.run { operation.attach { stops.withLock { $0 += 1 } } }
        }
        // Then the wait ends cancelled, and the operation was stopped as it was attached
        await #expect(throws: CancellationError.self) { try await wait.value }
        #expect(stops.withLock { $0 } == 1)
    }

    @Test func aFirstCallOnlyActionRunsForTheFirstCaller() {
        let calls = Mutex<[Bool]>([])
        let completion = FirstCallOnly<Bool> { success in calls.withLock { $0.append(success) } }
        completion(true)
        completion(false)
        #expect(calls.withLock { $0 } == [true])
    }
}
