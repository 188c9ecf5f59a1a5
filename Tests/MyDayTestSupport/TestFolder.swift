import Foundation

/// Temporary files and folders of a test process, all under one folder of its own that is removed when the process
/// exits; folders left by test processes that died are removed when the next one starts.
package enum TestFolder {
    /// `$TMPDIR/myday-tests-<pid>`, made (and its dead siblings cleared) on first use.
    package static let root: URL = {
        let base = FileManager.default.temporaryDirectory
        removeFoldersOfEndedProcesses(in: base)
        let root = base.appendingPathComponent("myday-tests-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFolder.root) }
        return root
    }()

    /// A new, empty folder named `prefix-…`.
    package static func make(_ prefix: String) -> URL {
        let folder = path(prefix)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A path named `prefix-…` (with `ext`, if any) that nothing uses yet; nothing is made there.
    package static func path(_ prefix: String, ext: String? = nil) -> URL {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())" + (ext.map { ".\($0)" } ?? "")
        return root.appendingPathComponent(name)
    }

    private static func removeFoldersOfEndedProcesses(in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix("myday-tests-") {
            guard let pid = Int32(name.dropFirst("myday-tests-".count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
        }
    }
}
