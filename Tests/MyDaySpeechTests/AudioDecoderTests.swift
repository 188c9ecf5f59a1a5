import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDaySpeech

/// The real ffmpeg, held to the limits a server sets.
@Suite struct AudioDecoderTests {
    private let folder = TestFolder.make("myday-decode")

    @Test func audioPastTheLimitIsNotDecoded() async throws {
        // Given a 5 s recording and a decoder that keeps 2 s
        let input = folder.appendingPathComponent("five.wav")
        try TestMedia.wav(seconds: 5).write(to: input)
        var decoder = AudioDecoder()
        decoder.maxSeconds = 2
        // When it is decoded
        let pcm = try await decoder.decode(input, container: .wav, into: folder)
        defer { try? FileManager.default.removeItem(at: pcm) }
        // Then the PCM holds 2 s: 16,000 samples of 2 bytes a second
        let size = try #require(try FileManager.default.attributesOfItem(atPath: pcm.path)[.size] as? Int)
        #expect(size == 2 * 2 * AudioDecoder.sampleRate)
    }

    @Test func aDecodeCancelledMidwayLeavesNoPCMBehind() async throws {
        // Given a recording that arrives through a pipe that never ends, so ffmpeg writes PCM and waits for more
        let fifo = folder.appendingPathComponent("endless.wav")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let scratch = folder.appendingPathComponent("scratch", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let testOver = DispatchSemaphore(value: 0)
        defer { testOver.signal() }
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            // Throws (broken pipe) once ffmpeg is gone; the non-throwing `write(_:)` would crash the test process.
            try? handle.write(contentsOf: TestMedia.wav(seconds: 20, sizesWritten: false))
            _ = testOver.wait(timeout: .now() + 300)
            try? handle.close()
        }
        writer.start()
        let decoding = Task { try await AudioDecoder().decode(fifo, container: .wav, into: scratch) }
        try await pollUntil("ffmpeg writes PCM") {
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).contains { $0.hasSuffix(".pcm") }
        }

        // When the decode is cancelled (a job cancelled at shutdown, or over its time limit)
        decoding.cancel()
        _ = await decoding.result

        // Then its PCM file is gone
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func onlyTheDeclaredContainerIsRead() async throws {
        // Given a WAV file declared as MP4
        let input = folder.appendingPathComponent("tone.m4a")
        try TestMedia.wav(seconds: 1).write(to: input)
        // Then ffmpeg does not guess its way to the WAV inside
        await #expect(throws: SpeechFailure.self) { try await AudioDecoder().decode(input, container: .mp4, into: folder) }
        let verdict = try await AudioProbe().probe(input, expected: .mp4)
        guard case .rejected = verdict else {
            Issue.record("a WAV file declared as MP4 was accepted: \(verdict)")
            return
        }
    }
}
