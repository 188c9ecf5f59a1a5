import Foundation
import MyDayModels

/// Decodes any accepted audio to raw 16 kHz mono 16-bit PCM with ffmpeg, into a temporary file.
package struct AudioDecoder: Sendable {
    package static let sampleRate = 16_000
    package var timeout: Duration = .seconds(600)
    /// Audio past this point is not decoded, whatever the file claims (`MYDAY_MAX_RECORDING_SECONDS`).
    package var maxSeconds: Double = 3 * 3600

    package init() {}

    /// Decodes `input` into a new file under `folder` and answers it; the caller removes it. Nothing is left behind
    /// when decoding fails, times out or is cancelled. Throws `SpeechFailure` for audio that no retry can decode.
    package func decode(_ input: URL, container: AudioContainer? = nil, into folder: URL) async throws -> URL {
        let output = folder.appendingPathComponent("\(UUID().uuidString).pcm")
        let result = try await FFmpegInput.run(
            ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + FFmpegInput.arguments(input, container: container)
                + [
                    "-t", String(maxSeconds), "-vn", "-ac", "1", "-ar", String(Self.sampleRate), "-f", "s16le", "-acodec",
                    "pcm_s16le", output.path,
                ],
            writing: output, timeout: timeout)
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        guard result.status == 0, size > 0 else {
            try? FileManager.default.removeItem(at: output)
            throw SpeechFailure(
                result.status == 0
                    ? "The recording holds no audio."
                    : "The recording could not be decoded; the file may be damaged or cut off.")
        }
        return output
    }
}
