import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// The logic behind the iOS app's background-session uploads: waiting, failing, and surviving a relaunch.
@Suite struct BackgroundUploaderTests {
    let folder = Given.folder()
    var ledger: URL { folder.appendingPathComponent("uploads.json") }
    let target = UploadTarget(url: URL(string: "http://127.0.0.1:9/v1/blobs/x")!, headers: [:], expiresAt: Given.now)

    private func recording(_ name: String = "2026-05-01_08-30-00_5a1c0ffe.m4a") throws -> URL {
        let file = folder.appendingPathComponent(name)
        try Data(repeating: 7, count: 1000).write(to: file)
        return file
    }

    /// Starts `uploader.run()` and an upload of `file`, as the queue would; the caller ends the task.
    private func startUpload(_ uploader: BackgroundUploader, _ file: URL, progress: Progress = Progress())
        -> (runner: Task<Void, Never>, upload: Task<Void, any Error>)
    {
        let runner = Task { await uploader.run() }
        let upload = Task { [target] in
            try await uploader.upload(file, to: target) { sent, total in progress.record(sent, total) }
        }
        return (runner, upload)
    }

    /// An upload of `file` that got its task 1 before the app was killed: only the ledger remembers it.
    private func startUploadThenKillTheApp(_ file: URL) async throws {
        let before = FakeBackgroundTransfer()
        let (runner, upload) = startUpload(try BackgroundUploader(transfer: before, ledgerFile: ledger), file)
        // The task starts before the ledger is written: the kill comes once both happened (a machine under load
        // once ran the relaunch in between, and the relaunched app rightly knew nothing of task 1).
        try await pollUntil("the task is in the ledger") { try before.startedCount == 1 && savedLedger()?.count == 1 }
        runner.cancel()
        upload.cancel()
    }

    /// The ledger as the uploader last saved it; nil before its first save.
    private func savedLedger() throws -> [String: BackgroundUploader.TrackedTask]? {
        guard FileManager.default.fileExists(atPath: ledger.path) else { return nil }
        return try JSONDecoder().decode([String: BackgroundUploader.TrackedTask].self, from: Data(contentsOf: ledger))
    }

    @Test func anUploadReturnsWhenItsTaskSucceedsAndReportsProgress() async throws {
        // Given a background transfer and an upload under way
        let transfer = FakeBackgroundTransfer()
        let uploader = try BackgroundUploader(transfer: transfer, ledgerFile: ledger)
        let progress = Progress()
        let (runner, upload) = startUpload(uploader, try recording(), progress: progress)
        defer { runner.cancel() }
        try await pollUntil("the task started") { transfer.startedCount == 1 }

        // (its start is reported before any byte: the system has the upload now, whatever becomes of the app)
        try await pollUntil("the start reported") { progress.last?.sent == 0 && progress.last?.total == 1000 }

        // When the system reports progress and then a 204
        transfer.send(1, bytes: 500, of: 1000)
        try await pollUntil("progress reported") { progress.last?.sent == 500 }
        transfer.finish(1, status: 204)

        // Then the upload returns, and the ledger keeps nothing
        try await upload.value
        #expect(transfer.started.first?.target.url == target.url)
        #expect(try savedLedger()?.isEmpty == true)
    }

    @Test func aRefusalOrNoAnswerIsThrownAsTheQueueUnderstandsIt() async throws {
        let transfer = FakeBackgroundTransfer()
        let uploader = try BackgroundUploader(transfer: transfer, ledgerFile: ledger)
        let (runner, refused) = startUpload(uploader, try recording("a.m4a"))
        defer { runner.cancel() }
        try await pollUntil("the first task started") { transfer.startedCount == 1 }
        transfer.finish(1, status: 503, retryAfter: "7")
        await #expect(throws: BlobUploadError(status: 503, retryAfter: 7)) { try await refused.value }
        #expect(
            UploadFailure(BlobUploadError(status: 503, retryAfter: 7))
                == .retry(reason: "The upload answered HTTP 503.", retryAfter: 7))

        let unreachable = Task { [target] in try await uploader.upload(try recording("b.m4a"), to: target) { _, _ in } }
        try await pollUntil("the second task started") { transfer.startedCount == 2 }
        transfer.finish(2, status: nil)
        await #expect(throws: BackgroundTransferFailure(reason: "offline")) { try await unreachable.value }
        guard case .retry = UploadFailure(BackgroundTransferFailure(reason: "offline")) else {
            Issue.record("no answer must be retried")
            return
        }
    }

    @Test func afterARelaunchAStillRunningUploadIsAwaitedNotSentTwice() async throws {
        // Given an upload started before the app was killed
        let file = try recording()
        try await startUploadThenKillTheApp(file)

        // When the relaunched app uploads the same file while the system still runs task 1
        let after = FakeBackgroundTransfer(running: [1], firstTaskID: 2)
        let relaunched = try BackgroundUploader(transfer: after, ledgerFile: ledger)
        let (runner, upload) = startUpload(relaunched, file)
        defer { runner.cancel() }
        try await pollUntil("waiting for task 1") { await relaunched.awaitedTaskIDs == [1] }
        after.finish(1, status: 200)

        // Then it waited for task 1 and started nothing
        try await upload.value
        #expect(after.startedCount == 0)
    }

    @Test func anUploadTheSystemFinishedWhileTheAppWasGoneIsNotSentAgain() async throws {
        // Given a task recorded in the ledger, and the system reporting its success at relaunch
        let file = try recording()
        try await startUploadThenKillTheApp(file)
        let after = FakeBackgroundTransfer(firstTaskID: 2)
        let relaunched = try BackgroundUploader(transfer: after, ledgerFile: ledger)
        let runner = Task { await relaunched.run() }
        defer { runner.cancel() }
        after.finish(1, status: 201)
        try await pollUntil("the outcome is kept") {
            try savedLedger()?["1"]?.outcome == .succeeded
        }

        // When the queue uploads the file again, then it returns at once without a new task
        try await relaunched.upload(file, to: target) { _, _ in }
        #expect(after.startedCount == 0)
    }

    @Test func anUploadTheSystemDroppedOrThatFailedMeanwhileIsSentAgain() async throws {
        // Given two tasks in the ledger: one the system no longer has, one that failed while nobody waited
        let dropped = try recording("dropped.m4a")
        let failed = try recording("failed.m4a")
        let before = FakeBackgroundTransfer()
        let first = try BackgroundUploader(transfer: before, ledgerFile: ledger)
        let (oldRunner, one) = startUpload(first, dropped)
        let two = Task { [target] in try await first.upload(failed, to: target) { _, _ in } }
        // (the app is killed once both are in the ledger: a task is written there just after it starts)
        try await pollUntil("both tasks are in the ledger") { try before.startedCount == 2 && savedLedger()?.count == 2 }
        oldRunner.cancel()
        one.cancel()
        two.cancel()
        let after = FakeBackgroundTransfer(running: [2], firstTaskID: 3)
        let relaunched = try BackgroundUploader(transfer: after, ledgerFile: ledger)
        let runner = Task { await relaunched.run() }
        defer { runner.cancel() }
        after.finish(2, status: 500)

        // When both are uploaded again, then each gets a new task
        try await pollUntil("the failure is kept") {
            try savedLedger()?["2"]?.outcome == .refused(status: 500, retryAfter: nil)
        }
        let again = Task { [target] in
            try await relaunched.upload(dropped, to: target) { _, _ in }
            try await relaunched.upload(failed, to: target) { _, _ in }
        }
        try await pollUntil("a new task for the dropped file") { after.startedCount == 1 }
        after.finish(3, status: 204)
        try await pollUntil("a new task for the failed file") { after.startedCount == 2 }
        after.finish(4, status: 204)
        try await again.value
        #expect(after.started.map(\.file.lastPathComponent) == ["dropped.m4a", "failed.m4a"])
    }

    @Test func theUploadQueueSendsThroughItEndToEnd() async throws {
        // Given a queued recording and a transfer the system completes
        let store = try LocalStore.inMemory()
        let library = try RecordingLibrary(root: folder.appendingPathComponent("library"))
        let id = UUID()
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try store.recordFinished(try library.finishRecording(id: id), now: Given.now)
        let transfer = FakeBackgroundTransfer()
        let uploader = try BackgroundUploader(transfer: transfer, ledgerFile: ledger)
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] entry in
            CreatedEntry(entry: Given.serverEntry(entry.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in Given.serverEntry(id, status: .uploaded, transcript: nil) }
        let queue = UploadQueue(store: store, client: client, uploader: uploader, library: library, now: { Given.now })
        let runner = Task { await uploader.run() }
        defer { runner.cancel() }

        // When the queue runs and the system finishes the task
        let pass = Task { try await queue.sendDue() }
        try await pollUntil("the task started") { transfer.startedCount == 1 }
        transfer.finish(1, status: 204)

        // Then the entry is uploaded
        #expect(try await pass.value.uploaded == 1)
        #expect(try store.entry(id)?.state == .uploaded)
    }
}

/// Progress reports an upload received.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [(sent: Int64, total: Int64)] = []
    var last: (sent: Int64, total: Int64)? { lock.withLock { reports.last } }
    func record(_ sent: Int64, _ total: Int64) { lock.withLock { reports.append((sent, total)) } }
}
