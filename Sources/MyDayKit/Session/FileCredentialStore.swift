import Foundation

/// Credentials in a JSON file only its owner can read (mode 0600), replaced atomically.
public struct FileCredentialStore: CredentialStore {
    public let file: URL

    public init(file: URL) { self.file = file }

    public func load() throws -> Credentials? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try JSONDecoder.myDay.decode(Credentials.self, from: data)
    }

    public func save(_ credentials: Credentials) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        // Created 0600 before a byte is written, so the tokens are never readable by others.
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: try JSONEncoder.myDay.encode(credentials))
            try handle.synchronize()
            try handle.close()
            try FileSystem.replace(file, with: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    public func clear() throws {
        do { try FileManager.default.removeItem(at: file) } catch CocoaError.fileNoSuchFile {}
    }
}
