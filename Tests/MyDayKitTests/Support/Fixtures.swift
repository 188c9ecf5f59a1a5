import Foundation
import MyDayKit
import MyDayModels

/// Values the client-core tests build entries and files from.
enum Given {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// The server's view of an entry, `status` and `updatedAt` as the test needs.
    static func serverEntry(
        _ id: UUID, status: EntryStatus = .transcribed, updatedAt: Date = now, transcript: String? = "A walk by the river.",
        title: String? = nil
    ) -> ServerEntry {
        ServerEntry(
            id: id, createdAt: now.addingTimeInterval(-3600), timeZone: "Europe/Paris", duration: 12, kind: .audio,
            status: status, filename: RecordingFilename.make(id: id, start: now.addingTimeInterval(-3600), timeZone: paris),
            contentType: "audio/mp4", sizeBytes: 4, title: title, transcriptRaw: transcript?.lowercased(),
            transcriptClean: transcript, updatedAt: updatedAt)
    }

    static let paris = TimeZone(identifier: "Europe/Paris")!

    /// A fresh folder under the temporary directory.
    static func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mydaykit-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A PCM WAV (16-bit mono) of `seconds` at `rate`; with `sizesWritten: false` its header says 0 bytes, as a crash leaves it.
    static func wav(seconds: Double, rate: Int = 16_000, sizesWritten: Bool = true) -> Data {
        let samples = Int(Double(rate) * seconds)
        let dataBytes = samples * 2
        var data = Data()
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append32(sizesWritten ? 36 + dataBytes : 0)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)
        append16(1)
        append16(1)
        append32(rate)
        append32(rate * 2)
        append16(2)
        append16(16)
        data.append(contentsOf: Array("data".utf8))
        append32(sizesWritten ? dataBytes : 0)
        for index in 0..<samples { append16(Int(Int16(sin(Double(index) / 10) * 8000)) & 0xFFFF) }
        return data
    }
}

/// Runs the real ffmpeg (quietly, overwriting) and throws when it fails.
func ffmpeg(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
}
