import Foundation

/// The files a process has open, as Linux shows them in `/proc/PID/fd`.
///
/// Blobs are written to unnamed temporary files (`O_TMPFILE`) that only get a name once complete: a partial upload
/// shows here, as `…/blobs/tmp/#123 (deleted)`, and nowhere in a folder listing.
package enum OpenFiles {
    /// The paths of every file `pid` has open.
    package static func of(_ pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
    }

    /// Whether a thread of `pid` is waiting in `open` for a FIFO's other end (its kernel wait channel says so).
    package static func isWaitingToOpenAFIFO(_ pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) == "wait_for_partner"
        }
    }
}
