import Foundation

extension FileManager {
    /// Removes the files in `folder` whose names end with `suffix` and that were last changed more than `age` seconds
    /// before `now`; answers how many.
    @discardableResult
    func removeFiles(in folder: URL, endingWith suffix: String, olderThan age: TimeInterval, now: Date = Date()) -> Int {
        let cutoff = now.addingTimeInterval(-age)
        var removed = 0
        for name in (try? contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(suffix) {
            let file = folder.appendingPathComponent(name)
            let modified = (try? attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? .distantPast
            if modified < cutoff, (try? removeItem(at: file)) != nil { removed += 1 }
        }
        return removed
    }
}
