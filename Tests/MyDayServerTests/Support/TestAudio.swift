import Foundation

/// Audio files made once per test run with the real ffmpeg.
enum TestAudio {
    /// 1.5 s of a 440 Hz tone as AAC in MP4, as an iPhone would upload it.
    static let m4a: Data = make(
        ["-f", "lavfi", "-i", "sine=frequency=440:duration=1.5", "-c:a", "aac", "-b:a", "64k"], ext: "m4a")
    static let wav: Data = make(["-f", "lavfi", "-i", "sine=frequency=300:duration=1", "-ar", "16000", "-ac", "1"], ext: "wav")
    /// The first half of `m4a`: its index (the `moov` box) is missing, as after a cut-off upload.
    static var truncatedM4A: Data { m4a.prefix(m4a.count / 2) }
    static let notAudio = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })

    private static func make(_ arguments: [String], ext: String) -> Data {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("myday-test-\(UUID().uuidString).\(ext)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments + [output.path]
        try! process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "ffmpeg could not make test audio")
        defer { try? FileManager.default.removeItem(at: output) }
        return try! Data(contentsOf: output)
    }
}
