import Foundation
import NIOCore
import _NIOFileSystem

/// Streams `contents` into a new file at `path` through a buffered writer; throws `BlobStoreError.tooLarge` as soon as
/// more than `maxBytes` arrive (the partial file is the caller's to remove). Answers the number of bytes written.
func writeNewFile<Contents: AsyncSequence & Sendable>(at path: String, from contents: Contents, maxBytes: Int)
    async throws -> Int
where Contents.Element == ByteBuffer {
    try await FileSystem.shared.withFileHandle(forWritingAt: FilePath(path), options: .newFile(replaceExisting: false)) {
        handle in
        try await handle.withBufferedWriter { writer in
            var total = 0
            for try await buffer in contents {
                total += buffer.readableBytes
                guard total <= maxBytes else { throw BlobStoreError.tooLarge(limit: maxBytes) }
                try await writer.write(contentsOf: buffer)
            }
            return total
        }
    }
}
