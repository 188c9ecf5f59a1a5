import Foundation

/// The files a process has open, as Linux shows them in `/proc/PID/fd`.
///
/// Blobs are written to unnamed temporary files (`O_TMPFILE`) that only get a name once complete: a partial upload
/// shows here, as `…/blobs/tmp/#123 (deleted)`, and nowhere in a folder listing.
public enum OpenFiles {
    /// The paths of every file `pid` has open.
    public static func of(_ pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
    }
}
