import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

@Suite struct RecordingLibraryTests {
    let library = try! RecordingLibrary(root: Given.folder())
    let id = UUID(uuidString: "5A1C0FFE-0000-4000-8000-000000000001")!

    @Test func aStoppedRecordingMovesIntoTheLibraryUnderItsLocalName() throws {
        // Given a recording started at 23:30 UTC in Tokyo and written to its temporary file
        let start = try Date("2026-03-08T23:30:00Z", strategy: .iso8601)
        let temporary = try library.beginRecording(
            id: id, startedAt: start, timeZone: TimeZone(identifier: "Asia/Tokyo")!, container: .wav)
        try TestMedia.wav(seconds: 2).write(to: temporary)
        // When it stops
        let finished = try library.finishRecording(id: id)
        // Then it is in recordings/ with Tokyo's wall clock and its real duration; only its start note
        // stays in incoming/ until the entry is written
        #expect(finished.audioPath == "recordings/2026-03-09_08-30-00_5a1c0ffe.wav")
        #expect(abs(finished.duration - 2) < 0.001)
        #expect(FileManager.default.fileExists(atPath: library.url(of: finished.audioPath).path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: library.incoming.path) == [
                "5a1c0ffe-0000-4000-8000-000000000001.json"
            ])
        library.forgetStart(of: id)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.incoming.path).isEmpty)
    }

    @Test func aCrashMidRecordingIsRecoveredWithTheDurationOfWhatWasWritten() throws {
        // Given a WAV whose header sizes were never written (the app died while recording) and an empty one
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 3.5, sizesWritten: false).write(to: temporary)
        let emptyID = UUID()
        let empty = try library.beginRecording(id: emptyID, startedAt: Given.now, timeZone: Given.paris, container: .mp4)
        #expect(FileManager.default.createFile(atPath: empty.path, contents: nil))
        // When the next launch recovers
        let recovered = try library.recoverInterrupted()
        // Then the first becomes a recording of 3.5 s and the empty one is discarded
        #expect(recovered.map(\.id) == [id])
        #expect(abs((recovered.first?.duration ?? 0) - 3.5) < 0.001)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: library.incoming.path).map { $0.hasSuffix(".json") } == [true])
    }

    @Test func aCompressedFileACrashLeftUnreadableIsRecoveredFromTheCapturesWAVCopy() async throws {
        // Given an AAC recording cut off before its index (the app died while writing it), and the WAV copy
        // the capture kept beside it, its header sizes never written
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris)
        let aac = try await TestSpeech.m4a("hello there, this is my day")
        try aac.prefix(aac.count / 2).write(to: temporary)
        try TestMedia.wav(seconds: 2.5, sizesWritten: false).write(to: RecordingLibrary.pcmCopy(of: temporary))
        #expect(AudioDuration.of(temporary) == nil)
        // When the next launch recovers
        let recovered = try library.recoverInterrupted()
        // Then the WAV becomes the recording, with its duration, and the unreadable file is gone
        let recording = try #require(recovered.first)
        #expect(recording.container == .wav && recording.audioPath.hasSuffix(".wav"))
        #expect(abs(recording.duration - 2.5) < 0.001)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: library.incoming.path) == [
                "5a1c0ffe-0000-4000-8000-000000000001.json"
            ])
    }

    @Test func theCapturesGrowingWAVLeftOpenByACrashIsRecoveredWithEverySampleAppended() throws {
        // Given a compressed recording never written (the app died while recording), and the WAV the capture grows
        // beside it, 1.5 s appended in 0.1 s buffers and never closed
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris)
        let wav = try GrowingWAVFile(creating: RecordingLibrary.pcmCopy(of: temporary), sampleRate: 16_000)
        let buffer = Data(repeating: 0x11, count: 1_600 * 2)
        for _ in 0..<15 { try wav.append(pcm: buffer) }
        // When the next launch recovers
        let recording = try #require(try library.recoverInterrupted().first)
        // Then the WAV is the recording, as long as what was appended, and its header says so
        #expect(recording.container == .wav)
        #expect(abs(recording.duration - 1.5) < 0.001)
        let file = try Data(contentsOf: library.url(of: recording.audioPath))
        #expect(file.count == 44 + 15 * buffer.count)
        #expect(file[40..<44].elementsEqual(withUnsafeBytes(of: UInt32(15 * buffer.count).littleEndian, Array.init)))
        try wav.close()
    }

    @Test func aWAVCopyLeftBesideAWholeFileIsRemovedAndTheFileKept() async throws {
        // Given a complete AAC recording and the WAV copy a crash left beside it after converting
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris)
        try await TestSpeech.m4a("hello there").write(to: temporary)
        try TestMedia.wav(seconds: 1).write(to: RecordingLibrary.pcmCopy(of: temporary))
        // When the next launch recovers, then the AAC file is the recording and the copy is gone
        let recording = try #require(try library.recoverInterrupted().first)
        #expect(recording.container == .mp4 && recording.audioPath.hasSuffix(".m4a") && recording.duration > 0.5)
        #expect(!FileManager.default.fileExists(atPath: RecordingLibrary.pcmCopy(of: temporary).path))
    }

    @Test func aCrashAfterTheMoveBeforeTheEntryIsRecoveredOnce() throws {
        // Given a recording moved into the library whose entry was never written (the app died in between)
        let store = try LocalStore.inMemory()
        let core = ClientCore(store: store, library: library, client: FakeMyDayClient(), uploader: FakeBlobUploader(answers: []))
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 2).write(to: temporary)
        _ = try library.finishRecording(id: id)
        // When the next launch recovers, twice
        try core.recoverAfterLaunch()
        try core.recoverAfterLaunch()
        // Then the recording is one queued entry with its real duration, and no start note is left
        #expect(try store.entries().map(\.id) == [id])
        #expect(abs((try store.entry(id)?.duration ?? 0) - 2) < 0.001)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.incoming.path).isEmpty)
    }

    @Test func importRefusesFilesThatAreNotAudio() throws {
        // Given a text file, when it is imported, then it is refused and nothing stays behind
        let file = Given.folder().appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: file)
        #expect(throws: RecordingLibraryError.unsupportedFile("notes.txt")) {
            try library.importFile(file, startedAt: Given.now, timeZone: Given.paris)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.incoming.path).isEmpty)
    }
}
