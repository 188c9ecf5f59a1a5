import ChildProcesses
import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// Recordings as browsers make them: MediaRecorder's WebM says neither how long it is nor where to seek.
@Suite struct BrowserRecordingTests {
    /// The Matroska element that lists where to seek (Cues), which a live-streamed WebM does not have.
    private static let cuesElementID = Data([0x1C, 0x53, 0xBB, 0x6B])

    /// ffprobe's duration of `data`, and a hash of every audio packet (their bytes, not their container).
    private func inspect(_ data: Data) async throws -> (duration: Double?, packets: [String]) {
        let file = TestFolder.path("myday-test", ext: "webm")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let probe = try await ChildProcess.succeed(
            "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file.path])
        let packets = try await ChildProcess.succeed(
            "ffmpeg", ["-nostdin", "-v", "error", "-i", file.path, "-map", "0:a:0", "-c", "copy", "-f", "framemd5", "-"])
        let hashes = packets.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        return (Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)), hashes)
    }

    @Test(arguments: TestDatabase.available)
    func aBrowserRecordingIsStoredSeekableWithTheSameAudioAndItsOwnLength(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        try await server.run { api in
            let session = try await api.register()
            // Given 4 s of audio as MediaRecorder streams it (no seek index), declared by the page as 1.5 s long
            let recorded = try await TestMedia.streamedWebM(seconds: 4)
            let original = try await inspect(recorded)
            try #require(recorded.firstRange(of: Self.cuesElementID) == nil && !original.packets.isEmpty)
            let id = UUID()
            let created = try await api.createAudioEntry(
                session, id: id, sizeBytes: recorded.count, contentType: "audio/webm")
            #expect(
                try await api.upload(try #require(created.uploadURL), recorded, contentType: "audio/webm").status == .noContent)

            // When the upload is completed
            let completed = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)

            // Then the entry has the audio's own length, and the stored file has a seek index and every packet as recorded
            #expect(completed.status == .ok)
            let duration = try #require(completed.json["duration_s"] as? Double)
            #expect(abs(duration - 4) < 0.1, "duration_s \(duration)")
            let link = try await api.send(.get, "/v1/entries/\(id)/audio", token: session.accessToken)
            let stored = try await api.send(.get, try #require(link.json["url"] as? String))
            #expect(stored.status == .ok)
            #expect(stored.body.firstRange(of: Self.cuesElementID) != nil)
            let remuxed = try await inspect(stored.body)
            let stated = try #require(remuxed.duration)
            #expect(abs(stated - duration) < 0.1, "stated \(stated), entry \(duration)")
            #expect(remuxed.packets == original.packets)
            // (and the same entry read again agrees)
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken)
            #expect(entry.json["duration_s"] as? Double == duration)
        }
    }
}
