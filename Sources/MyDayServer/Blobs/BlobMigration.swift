import Foundation
import ObjectStorage

/// Copies a disk blob store into the configured bucket, so that a server can move its audio and archives there: every
/// blob the bucket does not already hold with the same size and SHA-256 is uploaded (each request checked by the
/// service against its MD5) and read back before it counts. Running it again carries on where it stopped.
package struct BlobMigration: Sendable {
    /// What a run did.
    package struct Report: Sendable, Equatable, CustomStringConvertible {
        package var copied = 0
        package var alreadyThere = 0
        package var bytesCopied = 0

        package var description: String {
            "\(copied) copied (\(bytesCopied) bytes), \(alreadyThere) already in the bucket"
        }
    }

    /// The copy of a blob in the bucket is not the file.
    package struct Mismatch: Error, CustomStringConvertible {
        package let key: String
        package var description: String { "the bucket's copy of \(key) differs from the file after uploading it" }
    }

    let source: DiskBlobStore
    let target: S3BlobStore

    /// The migration from `folder` (the data directory's blobs when nil) to the bucket `configuration` names.
    package init(configuration: ServerConfiguration, from folder: URL? = nil) throws {
        guard let settings = configuration.objectStorage else {
            throw ConfigurationError("migrate-blobs copies into a bucket: set MYDAY_S3_BUCKET and its keys first")
        }
        source = try DiskBlobStore(root: folder ?? configuration.blobDirectory)
        var target = try S3BlobStore(
            client: S3Client(location: settings.location, credentials: settings.credentials),
            scratch: configuration.scratchDirectory)
        target.partSize = configuration.objectStoragePartBytes
        self.target = target
    }

    /// Copies what is missing, telling `progress` about each blob; throws at the first blob that cannot be copied.
    package func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        var report = Report()
        for area in BlobKey.userAreas {
            for key in try await source.keys(under: area).sorted() {
                let file = URL(fileURLWithPath: try source.path(for: key))
                let size = try S3BlobStore.size(of: file)
                let sha256 = try await S3BlobStore.sha256(of: file)
                if try await target.client.head(key).map({ $0.size == size && $0.metadata["sha256"] == sha256 }) == true {
                    report.alreadyThere += 1
                    continue
                }
                try await target.upload(fileAt: file, key: key, sha256: sha256)
                guard try await target.client.head(key).map({ $0.size == size && $0.metadata["sha256"] == sha256 }) == true
                else { throw Mismatch(key: key) }
                report.copied += 1
                report.bytesCopied += size
                progress("copied \(key) (\(size) bytes)")
            }
        }
        return report
    }
}
