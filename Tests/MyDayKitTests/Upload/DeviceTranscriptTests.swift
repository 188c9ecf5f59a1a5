import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// A recording transcribed on the device: its upload waits for the words, then carries them to `complete`.
@MainActor
@Suite struct DeviceTranscriptTests {
    let harness = CoreHarness()
    let target = UploadTarget(url: URL(string: "http://127.0.0.1:9/v1/blobs/x")!, headers: [:], expiresAt: Given.now)
    let heard = DeviceTranscript(
        text: "Today I rowed.",
        words: [
            .init(word: "Today", start: 0, end: 0.4), .init(word: "I", start: 0.5, end: 0.6),
            .init(word: "rowed.", start: 0.7, end: 1.1),
        ], engine: "apple-speech", language: "en-GB")

    private func queue(_ client: FakeMyDayClient, uploads: Int) -> UploadQueue {
        UploadQueue(
            store: harness.store, client: client, uploader: FakeBlobUploader(answers: Array(repeating: nil, count: uploads)),
            library: harness.library, now: { Given.now })
    }

    private func serverTakingUploads(completions: CompletionLog) -> FakeMyDayClient {
        var client = FakeMyDayClient()
        client.onCreateEntry = { [target] entry in
            CreatedEntry(entry: Given.serverEntry(entry.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, transcript in
            try completions.record(transcript)
            return Given.serverEntry(id, status: .uploaded, transcript: nil)
        }
        return client
    }

    @Test func theUploadWaitsForTheDevicesWordsAndSendsThemWithComplete() async throws {
        // Given Home with a transcriber on the device, in British English
        let transcriber = ScriptedTranscriber()
        let core = harness.core()
        let home = HomeViewModel(
            core: core, capture: FileWritingCapture(), hintStore: InMemoryHintStore(hasShownStopHint: true),
            locale: Locale(identifier: "en_GB"), deviceTranscriber: { transcriber })

        // When a recording is made and stopped
        await home.recordButtonTapped()
        await home.stopTapped()
        guard case .saved(let result) = home.recorder.state else {
            Issue.record("not saved: \(home.recorder.state)")
            return
        }

        // Then it is queued with the language hint, and held back while the device transcribes its file
        #expect(try harness.store.entry(result.id)?.language == "en-GB")
        try await pollUntil("the transcriber was asked") { transcriber.requests.count == 1 }
        #expect(transcriber.requests.first?.locale.identifier == "en_GB")
        let entry = try #require(try harness.store.entry(result.id))
        #expect(transcriber.requests.first?.file.path == harness.library.url(of: try #require(entry.audioPath)).path)
        #expect(try harness.store.pendingUploads().first?.upload.awaitsDeviceTranscript == true)
        #expect(try await queue(FakeMyDayClient(), uploads: 0).sendDue(evenIfNotDue: true).uploaded == 0)

        // When the words come, then the upload goes with them
        transcriber.respond(.success(heard))
        try await pollUntil("the words are kept with the upload") {
            try harness.store.pendingUploads().first?.upload.deviceTranscript == heard
        }
        let completions = CompletionLog()
        #expect(
            try await queue(serverTakingUploads(completions: completions), uploads: 1).sendDue(evenIfNotDue: true).uploaded == 1)
        #expect(completions.transcripts == [heard])
    }

    @Test func wordsTheServerRefusesAreDroppedAndTheRecordingStillGoesUp() async throws {
        // Given a queued recording with the device's words
        let id = try queueRecording(awaiting: true).id
        try harness.store.attachDeviceTranscript(heard, to: id)
        // And a server that refuses those words (422) but takes the audio
        let completions = CompletionLog(refusingTranscripts: true)
        let summary = try await queue(serverTakingUploads(completions: completions), uploads: 1).sendDue()
        // Then the entry is uploaded after a second complete without words
        #expect(summary.uploaded == 1 && summary.gaveUp == 0)
        #expect(completions.transcripts == [heard, nil])
        #expect(try harness.store.entry(id)?.state == .uploaded)
    }

    @Test func aTranscriberThatFailsOrHangsLetsTheUploadGoWithoutWords() async throws {
        let core = harness.core()
        for limit in [Duration.seconds(60), .milliseconds(20)] {
            // Given a recording waiting for a transcriber that fails (first) or never answers (second)
            let recording = try queueRecording(awaiting: true)
            let id = recording.id
            let transcriber = ScriptedTranscriber()
            if limit == .seconds(60) { transcriber.respond(.failure(TranscriberUnavailable())) }
            // When the transcription ends, then the upload waits no more and carries no words
            await core.transcribeOnDevice(recording, with: transcriber, locale: Locale(identifier: "en_US"), limit: limit)
            let upload = try #require(try harness.store.pendingUploads().first { $0.entry.id == id }?.upload)
            #expect(!upload.awaitsDeviceTranscript && upload.deviceTranscript == nil)
        }
    }

    @Test func aRelaunchGivesUpATranscriptionThatDiedWithTheProcess() throws {
        let id = try queueRecording(awaiting: true).id
        try harness.store.requeueInterruptedUploads()
        let upload = try #require(try harness.store.pendingUploads().first { $0.entry.id == id }?.upload)
        #expect(!upload.awaitsDeviceTranscript)
    }

    @Test func theLanguageHintIsTheLocalesBCP47Tag() {
        #expect(HomeViewModel.languageTag(of: Locale(identifier: "en_GB")) == "en-GB")
        #expect(HomeViewModel.languageTag(of: Locale(identifier: "pt_BR")) == "pt-BR")
        #expect(HomeViewModel.languageTag(of: Locale(identifier: "fr")) == "fr")
        #expect(HomeViewModel.languageTag(of: Locale(identifier: "")) == nil)
    }

    @Test func leavingTheScreenSendsARecordingWhoseWordsThePhoneIsStillMaking() async throws {
        // Given a recording saved in front, held back for the words the phone is making
        let recording = try queueRecording(awaiting: true)
        let completions = CompletionLog()
        let core = ClientCore(
            store: harness.store, library: harness.library, client: serverTakingUploads(completions: completions),
            uploader: FakeBlobUploader(answers: [nil]))
        #expect(try await core.uploads.handOverDue() == 0)

        // When the app leaves the screen (the phone locked right after Stop)
        let handedOver = try await core.handOverForBackground()

        // Then it goes up at once, without the phone's words: the server transcribes it
        #expect(handedOver == 1)
        try await pollUntil("the recording is uploaded") { try harness.store.entry(recording.id)?.state == .uploaded }
        #expect(completions.transcripts == [nil])
        // And words that come afterwards change nothing
        try harness.store.attachDeviceTranscript(heard, to: recording.id)
        #expect(try harness.store.pendingUploads().isEmpty)
    }

    private func queueRecording(awaiting: Bool) throws -> FinishedRecording {
        let id = UUID()
        let temporary = try harness.library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1.2).write(to: temporary)
        let recording = try harness.library.finishRecording(id: id)
        try harness.store.recordFinished(recording, awaitingDeviceTranscript: awaiting, now: Given.now)
        return recording
    }
}

/// The transcripts `complete` was called with, in order; it can refuse every transcript with a 422.
final class CompletionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [DeviceTranscript?] = []
    private let refusingTranscripts: Bool

    init(refusingTranscripts: Bool = false) { self.refusingTranscripts = refusingTranscripts }

    var transcripts: [DeviceTranscript?] { lock.withLock { received } }

    func record(_ transcript: DeviceTranscript?) throws {
        lock.withLock { received.append(transcript) }
        if refusingTranscripts, transcript != nil {
            throw MyDayClientError.server(
                status: 422, code: "invalid_value", message: "'transcript.text' must be the transcript's words, in order.",
                retryAfter: nil)
        }
    }
}
