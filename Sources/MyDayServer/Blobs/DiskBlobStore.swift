import Foundation
import NIOCore
import NIOPosix
import _NIOFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Blobs as files under one folder: written to `tmp/`, flushed, then renamed into place. Calls that wait on the disk
/// (fsync, folder walks, recursive deletes) run on NIO's blocking-I/O threads, never on Swift's cooperative pool.
struct DiskBlobStore: BlobStore {
    let root: URL

    init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
    }

    private var temporaryDirectory: URL { root.appendingPathComponent("tmp", isDirectory: true) }

    func path(for key: String) throws -> String {
        guard BlobKey.isWellFormed(key) else { throw BlobStoreError.notFound }
        return root.appendingPathComponent(key).path
    }

    func write<Contents: AsyncSequence & Sendable>(key: String, contents: Contents, maxBytes: Int) async throws -> Int
    where Contents.Element == ByteBuffer {
        let finalPath = try path(for: key)
        let temporaryPath = temporaryDirectory.appendingPathComponent("\(UUID().lowercased).part").path
        do {
            let written = try await writeNewFile(at: temporaryPath, from: contents, maxBytes: maxBytes)
            try await NIOThreadPool.singleton.runIfActive { try Self.flushAndRename(temporaryPath, to: finalPath) }
            return written
        } catch {
            unlink(temporaryPath)
            throw error
        }
    }

    func store(fileAt url: URL, key: String) async throws -> Int {
        let finalPath = try path(for: key)
        try await NIOThreadPool.singleton.runIfActive { try Self.flushAndRename(url.path, to: finalPath) }
        return try await size(key: key) ?? 0
    }

    func move(from source: String, to destination: String) async throws -> Bool {
        let from = try path(for: source)
        let to = try path(for: destination)
        return try await NIOThreadPool.singleton.runIfActive {
            let folder = (to as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard rename(from, to) == 0 else {
                if errno == ENOENT { return false }
                throw POSIXError(.init(rawValue: errno) ?? .EIO)
            }
            try Self.flush(path: folder)
            return true
        }
    }

    func size(key: String) async throws -> Int? {
        guard let info = try await FileSystem.shared.info(forFileAt: FilePath(try path(for: key))) else { return nil }
        return Int(info.size)
    }

    func delete(key: String) async throws {
        let path = try path(for: key)
        if unlink(path) != 0 && errno != ENOENT { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    func deleteAll(under prefix: String) async throws {
        let folder = try path(for: prefix)
        try await NIOThreadPool.singleton.runIfActive {
            do {
                try FileManager.default.removeItem(atPath: folder)
            } catch CocoaError.fileNoSuchFile {
                return
            }
            try Self.flush(path: (folder as NSString).deletingLastPathComponent)
        }
    }

    func folders(under prefix: String) async throws -> [String] {
        guard BlobKey.userAreas.contains(prefix) else { throw BlobStoreError.notFound }
        let folder = root.appendingPathComponent(prefix).path
        return try await NIOThreadPool.singleton.runIfActive {
            do {
                return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
            } catch CocoaError.fileReadNoSuchFile, CocoaError.fileNoSuchFile {
                return []
            }
        }
    }

    func withLocalFile<T: Sendable>(key: String, _ body: (URL) async throws -> T) async throws -> T {
        let path = try path(for: key)
        guard FileManager.default.fileExists(atPath: path) else { throw BlobStoreError.notFound }
        return try await body(URL(fileURLWithPath: path))
    }

    func withReadableURL<T: Sendable>(key: String, _ body: (URL) async throws -> T) async throws -> T {
        try await withLocalFile(key: key, body)
    }

    func keys(under prefix: String) async throws -> [String] {
        guard BlobKey.isWellFormed(prefix + "/x") else { throw BlobStoreError.notFound }
        let folder = root.appendingPathComponent(prefix, isDirectory: true).path
        return try await NIOThreadPool.singleton.runIfActive {
            let enumerator = FileManager.default.enumerator(
                at: URL(fileURLWithPath: folder, isDirectory: true), includingPropertiesForKeys: [.isRegularFileKey])
            var keys: [String] = []
            while let url = enumerator?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let key = prefix + "/" + url.path.dropFirst(folder.count + 1)
                if BlobKey.isWellFormed(key) { keys.append(key) }
            }
            return keys
        }
    }

    /// Removes partial uploads that a crash left behind; they never became blobs.
    func removeAbandonedWrites(startedBefore date: Date) async throws -> Int {
        try await FileManager.removeStaleFiles(
            in: temporaryDirectory, endingWith: ".part", olderThan: Date().timeIntervalSince(date))
    }

    /// Flushes the file at `path`, renames it to `destination` (making its folder) and flushes the folder.
    private static func flushAndRename(_ path: String, to destination: String) throws {
        try flush(path: path)
        let folder = (destination as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard rename(path, destination) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        try flush(path: folder)
    }

    /// fsync, so a rename never points at bytes still in the page cache.
    private static func flush(path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }
}
