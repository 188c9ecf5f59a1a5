import Foundation
import MyDayKit
import MyDayTestSupport

/// A client core on an in-memory store and a temporary library, with the fakes the test scripts.
struct CoreHarness {
    let store = try! LocalStore.inMemory()
    let library = try! RecordingLibrary(root: Given.folder())

    func core(_ client: FakeMyDayClient = FakeMyDayClient(), uploader: FakeBlobUploader = FakeBlobUploader(answers: []))
        -> ClientCore
    {
        ClientCore(store: store, library: library, client: client, uploader: uploader, network: Offline())
    }

    /// A synced entry the server transcribed.
    func synced(_ entries: [ServerEntry]) throws {
        try store.applyServerChanges(EntryChanges(entries: entries, deletedIDs: [], nextCursor: "1", hasMore: false))
    }
}

/// A capture that writes a short WAV where it is told to, as a microphone would; it can be told to refuse.
final class FileWritingCapture: AudioCapture, @unchecked Sendable {
    let events: AsyncStream<AudioCaptureEvent>
    private let eventsContinuation: AsyncStream<AudioCaptureEvent>.Continuation
    private let refusal: (any Error)?

    init(refusing refusal: (any Error)? = nil) {
        self.refusal = refusal
        (events, eventsContinuation) = AsyncStream.makeStream()
    }

    /// Reports `event` as the microphone would (a level a few times a second while recording).
    func send(_ event: AudioCaptureEvent) {
        eventsContinuation.yield(event)
    }

    func start(writingTo file: URL) async throws {
        if let refusal { throw refusal }
        try TestMedia.wav(seconds: 1.5).write(to: file)
    }

    func pause() async {}
    func resume() async throws {}
    func stop() async throws {}
}
