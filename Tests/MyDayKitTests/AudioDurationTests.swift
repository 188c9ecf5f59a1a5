import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

@Suite struct AudioDurationTests {
    @Test func readsWavDurationsFromTheHeader() throws {
        // Given a complete 1.25 s WAV, then its duration is read from the header
        let file = Given.folder().appendingPathComponent("a.wav")
        try TestMedia.wav(seconds: 1.25, rate: 44_100).write(to: file)
        #expect(abs((AudioDuration.of(file) ?? 0) - 1.25) < 0.001)
    }

    @Test func readsTheMovieHeaderOfAnM4AMadeByFFmpeg() async throws {
        // Given a 2 s AAC file made by the real ffmpeg, then its mvhd gives about 2 s
        let file = Given.folder().appendingPathComponent("tone.m4a")
        try await TestMedia.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "aac", "-b:a", "64k", file.path,
        ])
        let duration = try #require(AudioDuration.of(file))
        #expect(abs(duration - 2) < 0.1)
    }

    @Test func anM4AWithoutItsIndexHasNoDuration() async throws {
        // Given the first half of an m4a (its moov box missing, as after a crash), then no duration is claimed
        let file = Given.folder().appendingPathComponent("tone.m4a")
        try await TestMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "aac", file.path])
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)
        #expect(AudioDuration.of(file) == nil)
    }

    @Test func somethingElseHasNoDuration() throws {
        let file = Given.folder().appendingPathComponent("x.bin")
        try Data(repeating: 7, count: 100).write(to: file)
        #expect(AudioDuration.of(file) == nil)
    }
}
