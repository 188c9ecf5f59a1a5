import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// A `BlobUploader` that records what it was given and answers as scripted.
final class FakeBlobUploader: BlobUploader, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [(any Error)?]
    private(set) var uploadedBytes: [Data] = []

    /// `answers`: nil for success or an error to throw, one per call; a call beyond them fails the test.
    init(answers: [(any Error)?]) { self.answers = answers }

    func upload(_ file: URL, to target: UploadTarget, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws {
        let answer: (any Error)?? = lock.withLock { answers.isEmpty ? .none : .some(answers.removeFirst()) }
        guard let answer else {
            Issue.record("unexpected upload")
            throw UnexpectedCall(name: "upload")
        }
        if let answer { throw answer }
        let bytes = try Data(contentsOf: file)
        lock.withLock { uploadedBytes.append(bytes) }
        progress(Int64(bytes.count), Int64(bytes.count))
    }
}

/// An uploader like a background session's: it says at once that it has the file (progress 0), then finishes only
/// when the test lets it.
final class HoldingUploader: BlobUploader, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [URL] = []
    let release = Gate()

    var calls: Int { lock.withLock { files.count } }

    func upload(_ file: URL, to target: UploadTarget, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws {
        lock.withLock { files.append(file) }
        progress(0, 1000)
        await release.wait()
        progress(1000, 1000)
    }
}

/// Counts calls from concurrent code.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    @discardableResult func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

@Suite struct UploadQueueTests {
    let store = try! LocalStore.inMemory()
    let library = try! RecordingLibrary(root: Given.folder())
    let id = UUID()
    let target = UploadTarget(url: URL(string: "http://127.0.0.1:9/v1/blobs/x")!, headers: [:], expiresAt: Given.now)

    private func queueOneRecording() throws {
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try store.recordFinished(try library.finishRecording(id: id), now: Given.now)
    }

    private func queue(_ client: FakeMyDayClient, _ uploader: FakeBlobUploader, network: any NetworkMonitor = AssumeOnline())
        -> UploadQueue
    {
        UploadQueue(
            store: store, client: client, uploader: uploader, library: library, network: network, now: { Given.now },
            random: { 0 })
    }

    @Test func createsUploadsAndCompletesThenKeepsTheAudio() async throws {
        // Given a queued recording and a server that answers each step
        try queueOneRecording()
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] entry in
            #expect(entry.kind == .audio && entry.container == .wav && entry.sizeBytes ?? 0 > 0)
            return CreatedEntry(entry: Given.serverEntry(entry.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in Given.serverEntry(id, status: .uploaded, transcript: nil) }
        let uploader = FakeBlobUploader(answers: [nil])
        // When the queue runs
        let summary = try await queue(client, uploader).sendDue()
        // Then the entry is uploaded, the queue empty, and the local audio still there
        #expect(summary.uploaded == 1)
        let entry = try #require(try store.entry(id))
        #expect(entry.state == .uploaded)
        #expect(try store.pendingUploads().isEmpty)
        #expect(uploader.uploadedBytes.first == (try Data(contentsOf: library.url(of: entry.audioPath!))))
    }

    @Test func inTheBackgroundEveryDueUploadIsHandedOverAtOnceWithoutWaitingForItsEnd() async throws {
        // Given two queued recordings, one of them waiting out a backoff, and a background session that takes its time
        try queueOneRecording()
        let second = UUID()
        let temporary = try library.beginRecording(id: second, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try store.recordFinished(try library.finishRecording(id: second), now: Given.now)
        try store.markUploadRetry(second, reason: "Busy.", next: Given.now.addingTimeInterval(600))
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] entry in
            CreatedEntry(entry: Given.serverEntry(entry.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in Given.serverEntry(id, status: .uploaded, transcript: nil) }
        let uploader = HoldingUploader()
        let queue = UploadQueue(
            store: store, client: client, uploader: uploader, library: library, now: { Given.now }, random: { 0 })

        // When the background refresh hands them over
        let handedOver = try await queue.handOverDue()

        // Then both are with the uploader, together, and the pass is over while their transfers still run
        #expect(handedOver == 2)
        #expect(uploader.calls == 2)
        #expect(try store.entries().allSatisfy { $0.state == .uploading })

        // And when the session finishes them, both are completed
        uploader.release.open()
        try await pollUntil("both are uploaded") { try store.entries().allSatisfy { $0.state == .uploaded } }
        #expect(try store.pendingUploads().isEmpty)
    }

    @Test func serverErrorsAreRetriedLaterHonouringRetryAfter() async throws {
        // Given a server that answers 503 with Retry-After: 120
        try queueOneRecording()
        var client = FakeMyDayClient()
        client.onCreateEntry = { _ in
            throw MyDayClientError.server(status: 503, code: "unavailable", message: "Busy.", retryAfter: 120)
        }
        // When the queue runs
        let summary = try await queue(client, FakeBlobUploader(answers: [])).sendDue()
        // Then the entry waits in the queue until now + 120 s, with the reason, as the server asked
        #expect(summary.retrying == 1 && summary.throttled == 1)
        let (upload, entry) = try #require(try store.pendingUploads().first)
        #expect(entry.state == .queued)
        #expect(upload.attempts == 1)
        #expect(upload.nextAttemptAt == Given.now.addingTimeInterval(120))
        #expect(upload.lastError == "Busy.")
    }

    @Test func networkErrorsBackOffExponentially() async throws {
        // Given a server that cannot be reached, twice
        try queueOneRecording()
        var client = FakeMyDayClient()
        client.onCreateEntry = { _ in throw URLError(.cannotConnectToHost) }
        let queue = queue(client, FakeBlobUploader(answers: []))
        // When the queue runs, and runs again ignoring the schedule
        #expect(try await queue.sendDue().throttled == 0)
        #expect(try store.pendingUploads().first?.upload.nextAttemptAt == Given.now.addingTimeInterval(2))
        // Not due yet: a normal pass leaves it alone
        #expect(try await queue.sendDue().retrying == 0)
        try await queue.sendDue(evenIfNotDue: true)
        // Then the second wait is twice the first
        #expect(try store.pendingUploads().first?.upload.nextAttemptAt == Given.now.addingTimeInterval(4))
    }

    @Test func aRefusalRetryingCannotFixGivesUpWithTheReason() async throws {
        // Given a server that says the audio is not audio (422)
        try queueOneRecording()
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] in CreatedEntry(entry: Given.serverEntry($0.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { _, _ in
            throw MyDayClientError.server(status: 422, code: "not_audio", message: "The upload is not audio.", retryAfter: nil)
        }
        // When the queue runs
        let summary = try await queue(client, FakeBlobUploader(answers: [nil])).sendDue()
        // Then it gives up, shows why, keeps the audio, and a retry puts it back in the queue
        #expect(summary.gaveUp == 1)
        let entry = try #require(try store.entry(id))
        #expect(entry.state == .uploadFailed)
        #expect(entry.failureReason == "The upload is not audio.")
        #expect(FileManager.default.fileExists(atPath: library.url(of: entry.audioPath!).path))
        try store.retryUpload(id, now: Given.now)
        #expect(try store.entry(id)?.state == .queued)
    }

    @Test func anExpiredUploadURLIsReplacedByCreatingAgain() async throws {
        // Given an upload URL that answers 403 (expired) the first time
        try queueOneRecording()
        let creates = CallCounter()
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] in
            creates.increment()
            return CreatedEntry(entry: Given.serverEntry($0.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in Given.serverEntry(id, status: .uploaded) }
        let queue = queue(client, FakeBlobUploader(answers: [BlobUploadError(status: 403, retryAfter: nil), nil]))
        // When the queue runs twice
        #expect(try await queue.sendDue().retrying == 1)
        #expect(try await queue.sendDue(evenIfNotDue: true).uploaded == 1)
        // Then the entry was created (the same id) twice and is uploaded
        #expect(creates.count == 2)
        #expect(try store.entry(id)?.state == .uploaded)
    }

    @Test func audioAnEarlierAttemptStoredMeanwhileIsCompletedNotFailed() async throws {
        // Given an earlier attempt that stored the audio after this one created the entry (pending_upload),
        // so the upload URL answers 409
        try queueOneRecording()
        let completions = CallCounter()
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] in CreatedEntry(entry: Given.serverEntry($0.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in
            completions.increment()
            return Given.serverEntry(id, status: .uploaded)
        }
        let queue = queue(client, FakeBlobUploader(answers: [BlobUploadError(status: 409, retryAfter: nil)]))
        // When the queue runs
        let summary = try await queue.sendDue()
        // Then it completes the entry once and holds it as uploaded, with no failure
        #expect(summary.uploaded == 1)
        #expect(completions.count == 1)
        let entry = try #require(try store.entry(id))
        #expect(entry.state == .uploaded)
        #expect(entry.failureReason == nil)
    }

    @Test func offlineThePassDoesNothing() async throws {
        // Given no network, then the queue makes no call (the fake fails the test on any) and keeps the entry
        try queueOneRecording()
        let summary = try await queue(FakeMyDayClient(), FakeBlobUploader(answers: []), network: Offline()).sendDue()
        #expect(summary.pausedBecause == "offline")
        #expect(try store.entry(id)?.state == .queued)
    }

    @Test func anEndedSessionPausesWithoutCountingAnAttempt() async throws {
        try queueOneRecording()
        var client = FakeMyDayClient()
        client.onCreateEntry = { _ in throw MyDayClientError.sessionEnded }
        let summary = try await queue(client, FakeBlobUploader(answers: [])).sendDue()
        #expect(summary.pausedBecause != nil)
        #expect(try store.entry(id)?.state == .queued)
        #expect(try store.pendingUploads().first?.upload.attempts == 0)
    }

    @Test func twoPassesAtOnceSendAnEntryOnce() async throws {
        // Given a queued recording and a server that holds its first create until the test lets it answer
        try queueOneRecording()
        let creates = CallCounter()
        let firstCreate = Gate()
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] entry in
            if creates.increment() == 1 { await firstCreate.wait() }
            return CreatedEntry(entry: Given.serverEntry(entry.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in Given.serverEntry(id, status: .uploaded) }
        let queue = queue(client, FakeBlobUploader(answers: [nil]))
        // When a second pass (a pull-to-refresh) runs to its end while the first (the background loop) is sending
        let first = Task { try await queue.sendDue() }
        try await pollUntil("the first pass creates the entry") { creates.count == 1 }
        let second = try await queue.sendDue(evenIfNotDue: true)
        firstCreate.open()
        let summaries = [try await first.value, second]
        // Then the entry was created and uploaded once, by the first pass
        #expect(creates.count == 1)
        #expect(summaries.map(\.uploaded) == [1, 0])
    }

    @Test func anEntryDeletedHereIsNotUploaded() async throws {
        // Given a queued entry whose first attempt failed, then deleted here
        try queueOneRecording()
        var client = FakeMyDayClient()
        client.onCreateEntry = { _ in throw URLError(.timedOut) }
        try await queue(client, FakeBlobUploader(answers: [])).sendDue()
        try store.deleteEntry(id)
        // When the queue runs again, then it makes no call (the fake would fail the test)
        let quiet = queue(FakeMyDayClient(), FakeBlobUploader(answers: []))
        #expect(try await quiet.sendDue(evenIfNotDue: true).uploaded == 0)
    }

    @Test func aTypedNoteNeedsNoUpload() async throws {
        // Given a note, then creating it is all it takes
        let note = try store.noteWritten("Typed.", at: Given.now, timeZone: Given.paris)
        var client = FakeMyDayClient()
        client.onCreateEntry = { entry in
            #expect(entry.kind == .text && entry.text == "Typed.")
            var server = Given.serverEntry(entry.id, transcript: "Typed.")
            server.kind = .text
            return CreatedEntry(entry: server, upload: nil)
        }
        #expect(try await queue(client, FakeBlobUploader(answers: [])).sendDue().uploaded == 1)
        #expect(try store.entry(note.id)?.state == .transcribed)
    }
}

/// A network monitor that never allows uploads.
struct Offline: NetworkMonitor {
    var allowsUploads: Bool { false }
    func changes() -> AsyncStream<Bool> { AsyncStream { $0.finish() } }
}
