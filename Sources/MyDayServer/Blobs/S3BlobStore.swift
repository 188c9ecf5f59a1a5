import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import ObjectStorage
import _NIOFileSystem

/// Blobs as objects in an S3-compatible bucket. Clients upload and download with presigned URLs (`BlobLinks`); the
/// server lets ffprobe read an object by ranges where it lies, reads it whole through a bounded download to its scratch
/// folder, and writes large files as multipart uploads of `partSize` parts, so memory stays flat whatever the size.
struct S3BlobStore: BlobStore {
    let client: S3Client
    /// Where downloads for ffmpeg and ffprobe go while they are read.
    let scratch: URL
    /// Files up to this size go in one `PUT`; larger ones in parts of this size (S3 wants 5 MiB at least).
    var partSize = 16 * 1024 * 1024

    init(client: S3Client, scratch: URL) throws {
        self.client = client
        self.scratch = scratch
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    func store(fileAt url: URL, key: String) async throws -> Int {
        defer { try? FileManager.default.removeItem(at: url) }
        return try await upload(fileAt: url, key: key)
    }

    /// Uploads `file` as `key`, leaving the file in place: in one `PUT` up to `partSize`, else in parts. Given the file's
    /// SHA-256, each request carries its bytes' MD5, which the service verifies on arrival, and the object keeps the
    /// SHA-256 as `x-amz-meta-sha256`. Answers the size.
    @discardableResult
    func upload(fileAt url: URL, key: String, sha256: String? = nil) async throws -> Int {
        let size = try Self.size(of: url)
        let checked = sha256 != nil
        try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(url.path)) { file in
            let metadata = sha256.map { [(name: "x-amz-meta-sha256", value: $0)] } ?? []
            guard size > partSize else {
                let md5 = checked ? [(name: "Content-MD5", value: try await Self.md5(file, range: 0..<Int64(size)))] : []
                try await client.put(key, body: Self.body(file, range: 0..<Int64(size)), length: size, headers: md5 + metadata)
                return
            }
            try await uploadInParts(file, size: size, key: key, checked: checked, metadata: metadata)
        }
        return size
    }

    /// A multipart upload of `file`, part after part; an upload that fails is aborted, so no parts are left to pay for.
    private func uploadInParts(
        _ file: ReadFileHandle, size: Int, key: String, checked: Bool, metadata: [(name: String, value: String)]
    ) async throws {
        let uploadID = try await client.startMultipartUpload(key, headers: metadata)
        do {
            var tags: [String] = []
            for (index, start) in stride(from: 0, to: size, by: partSize).enumerated() {
                let range = Int64(start)..<Int64(min(start + partSize, size))
                tags.append(
                    try await client.uploadPart(
                        key, uploadID: uploadID, number: index + 1, body: Self.body(file, range: range), length: range.count,
                        contentMD5: checked ? try await Self.md5(file, range: range) : nil))
            }
            try await client.completeMultipartUpload(key, uploadID: uploadID, partTags: tags)
        } catch {
            try? await client.abortMultipartUpload(key, uploadID: uploadID)
            throw error
        }
    }

    private static func body(_ file: ReadFileHandle, range: Range<Int64>) -> HTTPClientRequest.Body {
        .stream(file.readChunks(in: range, chunkLength: .kibibytes(256)), length: .known(Int64(range.count)))
    }

    /// The SHA-256 of a file, in hex.
    static func sha256(of url: URL) async throws -> String {
        try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(url.path)) { file in
            var hash = SHA256()
            for try await chunk in file.readChunks(chunkLength: .mebibytes(1)) { hash.update(data: chunk.readableBytesView) }
            return hash.finalize().hex
        }
    }

    /// The MD5 of `range` of the file, in base64, as `Content-MD5` wants it.
    private static func md5(_ file: ReadFileHandle, range: Range<Int64>) async throws -> String {
        var hash = Insecure.MD5()
        for try await chunk in file.readChunks(in: range, chunkLength: .mebibytes(1)) {
            hash.update(data: chunk.readableBytesView)
        }
        return Data(hash.finalize()).base64EncodedString()
    }

    static func size(of url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    /// S3 cannot rename: the object is copied inside the bucket, then the source removed. Either step may be repeated.
    func move(from source: String, to destination: String) async throws -> Bool {
        guard try await client.head(source) != nil else { return false }
        try await client.copy(from: source, to: destination)
        try await client.delete(source)
        return true
    }

    func size(key: String) async throws -> Int? {
        try await client.head(key)?.size
    }

    func delete(key: String) async throws {
        try await client.delete(key)
    }

    func deleteAll(under prefix: String) async throws {
        let keys = try await client.list(prefix: prefix + "/").objects.map(\.key)
        try await client.delete(keys: keys)
    }

    func folders(under prefix: String) async throws -> [String] {
        guard BlobKey.userAreas.contains(prefix) else { throw BlobStoreError.notFound }
        return try await client.list(prefix: prefix + "/", delimiter: "/").folders.map { folder in
            String(folder.dropFirst(prefix.count + 1).dropLast(folder.hasSuffix("/") ? 1 : 0))
        }
    }

    func keys(under prefix: String) async throws -> [String] {
        try await client.list(prefix: prefix + "/").objects.map(\.key)
    }

    /// Aborts multipart uploads of this server's keys begun before `date` that nobody finished (a worker killed while
    /// writing an archive), and removes the scratch copies a killed process left (downloads, uploads being written).
    func removeAbandonedWrites(startedBefore date: Date) async throws -> Int {
        var removed = 0
        for area in BlobKey.userAreas {
            for upload in try await client.openMultipartUploads(prefix: area + "/") {
                guard let started = S3BlobStore.time(upload.started), started < date else { continue }
                try await client.abortMultipartUpload(upload.key, uploadID: upload.uploadID)
                removed += 1
            }
        }
        let age = Date().timeIntervalSince(date)
        for suffix in [".download", ".part"] {
            removed += try await FileManager.removeStaleFiles(in: scratch, endingWith: suffix, olderThan: age)
        }
        return removed
    }

    /// A time as S3 writes it (`2026-11-25T10:00:00.000Z`).
    static func time(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// Downloads the object to the scratch folder (no more bytes than its size said when asked), runs `body` with the
    /// file, and removes it.
    func withLocalFile<T: Sendable>(key: String, _ body: (URL) async throws -> T) async throws -> T {
        guard let info = try await client.head(key) else { throw BlobStoreError.notFound }
        let file = scratch.appendingPathComponent("\(UUID().lowercased).download")
        defer { try? FileManager.default.removeItem(at: file) }
        if info.size > 0 {
            _ = try await writeNewFile(
                at: file.path, from: try await client.get(key, range: 0...(info.size - 1)), maxBytes: info.size)
        } else {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        }
        return try await body(file)
    }

    /// How long the URL ffprobe reads an object by stays valid: a probe that takes longer fails and is retried.
    static let readableURLLifetime = 600

    func withReadableURL<T: Sendable>(key: String, _ body: (URL) async throws -> T) async throws -> T {
        guard try await client.head(key) != nil else { throw BlobStoreError.notFound }
        let url = client.presignedURL(method: "GET", key: key, expires: Self.readableURLLifetime)
        guard let readable = URL(string: url) else { throw BlobStoreError.notFound }
        return try await body(readable)
    }
}
