import Foundation
import MyDayKit

/// How the CLI writes: results to stdout, progress and problems to stderr.
struct Output: Sendable {
    /// One line of results, written out at once, unbuffered (a watching `sync` reports while it runs).
    func line(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

    func note(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    /// Progress of the upload queue, at most one line per tenth of a file.
    var uploadEvent: @Sendable (UploadEvent) -> Void {
        let tenths = TenthsSeen()
        return { event in
            switch event {
            case .started(let id): note("Uploading \(id.short)…")
            case .progress(let id, let sent, let total):
                guard total > 0, tenths.isNew(id: id, tenth: Int(sent * 10 / total)) else { return }
                note(
                    "  \(id.short) \(sent * 100 / total)% of \(ByteCountFormatter.string(fromByteCount: total, countStyle: .file))"
                )
            case .uploaded(let id): note("Uploaded \(id.short).")
            case .alreadyInTheDiary(let id, let existing):
                note("Not sent \(id.short): the diary has this file as \(existing.short).")
            case .willRetry(let id, let reason, let date):
                note("Not uploaded \(id.short): \(reason) Will retry after \(date.formatted(date: .omitted, time: .standard)).")
            case .gaveUp(let id, let reason): note("Refused \(id.short): \(reason)")
            case .paused(let reason): note("Uploads paused: \(reason)")
            }
        }
    }
}

/// The progress tenths already printed per upload.
private final class TenthsSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [UUID: Int] = [:]

    func isNew(id: UUID, tenth: Int) -> Bool {
        lock.withLock {
            guard seen[id, default: -1] < tenth else { return false }
            seen[id] = tenth
            return true
        }
    }
}

extension UUID {
    /// The first eight hex digits, as `myday list` shows ids.
    var short: String { String(uuidString.lowercased().prefix(8)) }
}
