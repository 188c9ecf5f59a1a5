import Foundation

#if canImport(OpenAPIURLSession)
    /// Uploads with a foreground `URLSession`; the app swaps in a background-session uploader for long files.
    public struct HTTPBlobUploader: BlobUploader {
        private let session: URLSession

        public init(session: URLSession = .shared) { self.session = session }

        public func upload(
            _ file: URL, to target: UploadTarget, progress: @escaping @Sendable (_ sent: Int64, _ total: Int64) -> Void
        ) async throws {
            var request = URLRequest(url: target.url)
            request.httpMethod = "PUT"
            for (name, value) in target.headers { request.setValue(value, forHTTPHeaderField: name) }
            let (_, response) = try await session.upload(for: request, fromFile: file, delegate: ProgressReporter(progress))
            guard let http = response as? HTTPURLResponse else { throw BlobUploadError(status: 0, retryAfter: nil) }
            guard (200..<300).contains(http.statusCode) else {
                throw BlobUploadError(
                    status: http.statusCode, retryAfter: RetryAfter.seconds(http.value(forHTTPHeaderField: "Retry-After")))
            }
        }
    }

    /// Forwards a task's sent-bytes counts.
    private final class ProgressReporter: NSObject, URLSessionTaskDelegate, Sendable {
        let report: @Sendable (Int64, Int64) -> Void

        init(_ report: @escaping @Sendable (Int64, Int64) -> Void) { self.report = report }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            report(totalBytesSent, totalBytesExpectedToSend)
        }
    }
#else
    import AsyncHTTPClient
    import NIOCore

    /// Uploads with AsyncHTTPClient, streaming the file in chunks so memory stays flat for long recordings.
    public struct HTTPBlobUploader: BlobUploader {
        private let client: HTTPClient
        private static let chunkSize = 256 * 1024

        public init(client: HTTPClient? = nil) { self.client = client ?? .myDayClient }

        public func upload(
            _ file: URL, to target: UploadTarget, progress: @escaping @Sendable (_ sent: Int64, _ total: Int64) -> Void
        ) async throws {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            let total = Int64(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            let reader = ChunkReader(handle: handle, chunkSize: Self.chunkSize, total: total, progress: progress)
            var request = HTTPClientRequest(url: target.url.absoluteString)
            request.method = .PUT
            for (name, value) in target.headers { request.headers.add(name: name, value: value) }
            request.body = .stream(AsyncThrowingStream(unfolding: reader.next), length: .known(total))
            let response = try await client.execute(request, timeout: .minutes(30))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            guard (200..<300).contains(Int(response.status.code)) else {
                throw BlobUploadError(
                    status: Int(response.status.code),
                    retryAfter: RetryAfter.seconds(response.headers.first(name: "Retry-After")))
            }
        }
    }

    /// Reads a file one chunk at a time and reports the bytes handed out.
    private final class ChunkReader: @unchecked Sendable {
        private let handle: FileHandle
        private let chunkSize: Int
        private let total: Int64
        private let progress: @Sendable (Int64, Int64) -> Void
        private var sent: Int64 = 0

        init(handle: FileHandle, chunkSize: Int, total: Int64, progress: @escaping @Sendable (Int64, Int64) -> Void) {
            self.handle = handle
            self.chunkSize = chunkSize
            self.total = total
            self.progress = progress
        }

        /// The next chunk, or nil at the end; the stream calls it one at a time.
        @Sendable func next() async throws -> ByteBuffer? {
            guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return nil }
            sent += Int64(data.count)
            progress(sent, total)
            return ByteBuffer(bytes: data)
        }
    }
#endif
