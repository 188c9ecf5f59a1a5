import Foundation

/// Sends a file's bytes to a signed upload URL. The app may provide one on a background `URLSession`.
public protocol BlobUploader: Sendable {
    /// Uploads `file` to `target`, reporting bytes sent; throws `BlobUploadError` for an error answer.
    func upload(_ file: URL, to target: UploadTarget, progress: @escaping @Sendable (_ sent: Int64, _ total: Int64) -> Void)
        async throws
}

/// The upload URL answered with an error status.
public struct BlobUploadError: Error, Equatable, CustomStringConvertible {
    public let status: Int
    public let retryAfter: TimeInterval?

    public init(status: Int, retryAfter: TimeInterval?) {
        self.status = status
        self.retryAfter = retryAfter
    }

    public var description: String { "The upload answered HTTP \(status)." }
}
