import Foundation

/// Durable storage for audio (and, later, export archives), addressed by `BlobKey`s.
protocol BlobStore: Sendable {
    /// Moves a finished local file (in the data directory's scratch folder) into `key`; answers its size.
    func store(fileAt url: URL, key: String) async throws -> Int

    /// Moves the blob at `source` to `destination` at once, replacing what was there; false when `source` has none.
    func move(from source: String, to destination: String) async throws -> Bool

    /// The blob's size, or nil when there is none.
    func size(key: String) async throws -> Int?

    /// Removes the blob; removing a missing blob is not an error.
    func delete(key: String) async throws

    /// Removes every blob under the folder `prefix` (`audio/<user id>`, say); a missing folder is not an error.
    func deleteAll(under prefix: String) async throws

    /// The names of the folders right under `prefix` (`audio`, say: one per user); none when it does not exist.
    func folders(under prefix: String) async throws -> [String]

    /// The keys of every blob under the folder `prefix` (`incoming`, say), at any depth.
    func keys(under prefix: String) async throws -> [String]

    /// Removes writes a crash or a failure left unfinished (partial files, open multipart uploads) that started before
    /// `date`; answers how many.
    func removeAbandonedWrites(startedBefore date: Date) async throws -> Int

    /// Runs `body` with a local file holding the blob (for tools such as ffprobe).
    func withLocalFile<T: Sendable>(key: String, _ body: (URL) async throws -> T) async throws -> T

    /// Runs `body` with a URL ffprobe and ffmpeg can read the blob from where it lies: the file itself on disk, a
    /// short-lived presigned `GET` in a bucket (they read only the byte ranges they need, nothing is copied).
    func withReadableURL<T: Sendable>(key: String, _ body: (URL) async throws -> T) async throws -> T
}

extension BlobStore {
    /// Removes an entry's audio and whatever of it is still arriving.
    func deleteAudio(key: String) async throws {
        try await delete(key: key)
        try await delete(key: BlobKey.incoming(ofAudio: key))
    }
}

enum BlobStoreError: Error, Equatable {
    case tooLarge(limit: Int)
    case notFound
}
