import Foundation
import MyDayKit
import MyDayModels
import MyDayTestSupport

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
    static func folder() -> URL { TestFolder.make("mydaykit") }
}
