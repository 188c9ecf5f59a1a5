import Foundation
import MyDayModels

/// Rewrites a recording that does not say how long it is (browsers' MediaRecorder WebM) into the same container with
/// its duration and a seek index, copying the audio packets as they are: nothing is decoded or re-encoded.
package struct SeekableRemux: Sendable {
    package var timeout: Duration = .seconds(120)

    package init() {}

    /// The remuxed copy of `input` in a new file under `folder`; the caller moves or removes it. Nil (and nothing left
    /// behind) when ffmpeg cannot do it: the original is kept as it is then.
    package func remux(_ input: URL, container: AudioContainer, into folder: URL) async throws -> URL? {
        let output = folder.appendingPathComponent("\(UUID().uuidString).\(container.fileExtension)")
        let result = try await FFmpegInput.run(
            ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + FFmpegInput.arguments(input, container: container)
                + ["-map", "0:a:0", "-c", "copy", "-f", FFmpegInput.muxer(for: container), output.path],
            writing: output, timeout: timeout)
        return result.status == 0 ? output : nil
    }
}
