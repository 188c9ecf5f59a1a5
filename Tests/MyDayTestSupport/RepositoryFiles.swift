import Foundation

/// Files of this repository that tests use: its tools and the Python environment `scripts/install-python-tools` makes.
package enum RepositoryFiles {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `.build/python/bin/python`; nil until `scripts/install-python-tools` ran.
    package static var python: URL? {
        let python = root.appendingPathComponent(".build/python/bin/python")
        return FileManager.default.isExecutableFile(atPath: python.path) ? python : nil
    }

    /// A helper under `Tests/Tools`.
    package static func tool(_ name: String) -> URL { root.appendingPathComponent("Tests/Tools/\(name)") }
}
