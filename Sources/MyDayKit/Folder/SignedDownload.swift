import Foundation

#if canImport(OpenAPIURLSession)
    /// Downloads what a signed link gives (a recording, an export) into a file.
    public enum SignedDownload {
        public static func fetch(_ url: URL, to file: URL) async throws {
            let (downloaded, response) = try await URLSession.shared.download(from: url)
            guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
                try? FileManager.default.removeItem(at: downloaded)
                throw SignedDownloadError(status: (response as? HTTPURLResponse)?.statusCode ?? 0)
            }
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: downloaded, to: file)
        }
    }
#else
    import AsyncHTTPClient

    /// Downloads what a signed link gives (a recording, an export) into a file, a chunk at a time (memory stays flat).
    public enum SignedDownload {
        public static func fetch(_ url: URL, to file: URL) async throws {
            let response = try await HTTPClient.myDayClient.execute(
                HTTPClientRequest(url: url.absoluteString), timeout: .minutes(30))
            guard (200..<300).contains(Int(response.status.code)) else {
                _ = try? await response.body.collect(upTo: 64 * 1024)
                throw SignedDownloadError(status: Int(response.status.code))
            }
            // Written beside, then moved into place: a broken download never leaves half a file under the final name.
            let partial = file.appendingPathExtension("partial")
            try Data().write(to: partial)
            let output = try FileHandle(forWritingTo: partial)
            do {
                for try await chunk in response.body { try output.write(contentsOf: Data(chunk.readableBytesView)) }
                try output.close()
                try? FileManager.default.removeItem(at: file)
                try FileManager.default.moveItem(at: partial, to: file)
            } catch {
                try? output.close()
                try? FileManager.default.removeItem(at: partial)
                throw error
            }
        }
    }
#endif

/// A download the server answered with another status than 2xx.
public struct SignedDownloadError: Error, CustomStringConvertible {
    public let status: Int
    public var description: String { "The download failed (HTTP \(status))." }
}
