import Foundation
import NIOPosix

extension FileManager {
    /// Removes the files in `folder` whose names end with `suffix` and that were last changed more than `age` seconds
    /// before `now`; answers how many. The folder is read on NIO's blocking-I/O threads, off Swift's cooperative pool.
    @discardableResult
    static func removeStaleFiles(in folder: URL, endingWith suffix: String, olderThan age: TimeInterval, now: Date = Date())
        async throws -> Int
    {
        try await NIOThreadPool.singleton.runIfActive {
            let files = FileManager.default
            let cutoff = now.addingTimeInterval(-age)
            var removed = 0
            for name in (try? files.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(suffix) {
                let file = folder.appendingPathComponent(name)
                let modified = (try? files.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? .distantPast
                if modified < cutoff, (try? files.removeItem(at: file)) != nil { removed += 1 }
            }
            return removed
        }
    }
}
