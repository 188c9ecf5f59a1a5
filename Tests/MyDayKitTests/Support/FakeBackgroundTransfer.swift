import Foundation
import Testing

@testable import MyDayKit

/// A `BackgroundTransfer` whose tasks end when the test says, as the system's background session would report them.
final class FakeBackgroundTransfer: BackgroundTransfer, @unchecked Sendable {
    private let lock = NSLock()
    private var nextTaskID: Int
    private var running: Set<Int>
    private(set) var started: [(taskID: Int, file: URL, target: UploadTarget)] = []
    let events: AsyncStream<BackgroundTransferEvent>
    private let continuation: AsyncStream<BackgroundTransferEvent>.Continuation

    /// `running`: tasks the system still has (after a relaunch); new tasks are numbered from `firstTaskID`.
    init(running: Set<Int> = [], firstTaskID: Int = 1) {
        self.running = running
        self.nextTaskID = firstTaskID
        (events, continuation) = AsyncStream.makeStream()
    }

    var startedCount: Int { lock.withLock { started.count } }

    func startUpload(_ file: URL, to target: UploadTarget) async throws -> Int {
        lock.withLock {
            let taskID = nextTaskID
            nextTaskID += 1
            running.insert(taskID)
            started.append((taskID, file, target))
            return taskID
        }
    }

    func runningTaskIDs() async -> Set<Int> { lock.withLock { running } }

    func send(_ taskID: Int, bytes: Int64, of total: Int64) {
        continuation.yield(.sent(taskID: taskID, bytes: bytes, of: total))
    }

    /// The task ended with an HTTP `status`, or without an answer when nil.
    func finish(_ taskID: Int, status: Int?, retryAfter: String? = nil) {
        _ = lock.withLock { running.remove(taskID) }
        continuation.yield(
            .finished(taskID: taskID, status: status, retryAfter: retryAfter, error: status == nil ? "offline" : nil))
    }
}
