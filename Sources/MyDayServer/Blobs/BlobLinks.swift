import Foundation
import ObjectStorage

/// Makes the time-bound URLs clients upload and download blobs with: this server's own signed URLs (served by
/// `BlobRoutes`) for the disk store, presigned URLs of the bucket when blobs live in one.
struct BlobLinks: Sendable {
    let signer: URLSigner
    let uploadLifetime: Duration
    let downloadLifetime: Duration
    /// The bucket blobs live in; nil for the disk store.
    let bucket: S3Client?

    /// Where to send a request, until when, and the headers it must carry.
    struct Link: Equatable {
        let url: String
        let expires: Date
        var headers: [String: String] = [:]
    }

    init(signer: URLSigner, uploadLifetime: Duration, downloadLifetime: Duration, bucket: S3Client? = nil) {
        self.signer = signer
        self.uploadLifetime = uploadLifetime
        self.downloadLifetime = downloadLifetime
        self.bucket = bucket
    }

    /// How long a bucket's upload URL works: it cannot be taken back, so it is short. The bucket checks the time when an
    /// upload starts, not when it ends, and a client whose URL expired creates the entry again for a fresh one.
    static let bucketUploadLifetime: Duration = .seconds(900)
    /// How long a bucket's audio link works: it cannot be taken back when the sessions end, so it is short too.
    static let bucketDownloadLifetime: Duration = .seconds(900)

    /// The links of a server with this configuration and signing secret.
    init(configuration: ServerConfiguration, secret: [UInt8], bucket: S3Client?) {
        self.init(
            signer: URLSigner(secret: secret),
            uploadLifetime: bucket == nil
                ? configuration.uploadURLLifetime : min(configuration.uploadURLLifetime, Self.bucketUploadLifetime),
            downloadLifetime: configuration.downloadURLLifetime, bucket: bucket)
    }

    /// Where the client PUTs the audio of `audioKey`: this server, or the bucket's `incoming/` key with the content type
    /// and, when the entry declared it, the length bound into the signature.
    func upload(audioKey: String, contentType: String, length: Int?, now: Date = Date()) -> Link {
        let expires = Self.whole(now.addingTimeInterval(uploadLifetime.seconds))
        guard let bucket else {
            return Link(
                url: serverURL("PUT", key: audioKey, expires: expires), expires: expires, headers: ["Content-Type": contentType])
        }
        var signed = [(name: "Content-Type", value: contentType)]
        if let length { signed.append(("Content-Length", String(length))) }
        let url = bucket.presignedURL(
            method: "PUT", key: BlobKey.incoming(ofAudio: audioKey), headers: signed, expires: Int(uploadLifetime.seconds),
            at: expires.addingTimeInterval(-uploadLifetime.seconds))
        return Link(url: url, expires: expires, headers: ["Content-Type": contentType])
    }

    /// Where the client plays or saves an entry's audio, named `filename`. This server's link works only while the
    /// owner's sessions are of `accountVersion` (sign-out everywhere and a new password end it at once); a bucket's
    /// presigned URL cannot be taken back, and lasts its (short) lifetime.
    func audioDownload(key: String, filename: String, contentType: String, accountVersion: Int, now: Date = Date()) -> Link {
        let expires = Self.whole(now.addingTimeInterval(downloadLifetime.seconds))
        let bucketLifetime = min(downloadLifetime, Self.bucketDownloadLifetime)
        return bucketDownload(
            key: key, contentType: contentType, disposition: "inline; filename=\"\(filename)\"", lifetime: bucketLifetime,
            now: now)
            ?? Link(url: serverURL("GET", key: key, expires: expires, version: accountVersion), expires: expires)
    }

    /// This server's link to an export's archive, which stops working at `expires` (fixed when it was built). The server
    /// checks that the export may still be downloaded each time, so it is this server's even when archives live in a
    /// bucket: then it sends the browser on to a presigned URL (`bucketDownload`).
    func exportDownload(key: String, expires: Date) -> Link {
        let whole = Self.whole(expires)
        return Link(url: serverURL("GET", key: key, expires: whole), expires: whole)
    }

    /// A presigned `GET` of the bucket that names the file as `disposition` says; nil without a bucket.
    func bucketDownload(key: String, contentType: String, disposition: String, lifetime: Duration, now: Date = Date()) -> Link? {
        guard let bucket else { return nil }
        let expires = Self.whole(now.addingTimeInterval(lifetime.seconds))
        let url = bucket.presignedURL(
            method: "GET", key: key,
            query: [("response-content-disposition", disposition), ("response-content-type", contentType)],
            expires: Int(lifetime.seconds), at: expires.addingTimeInterval(-lifetime.seconds))
        return Link(url: url, expires: expires)
    }

    private func serverURL(_ method: String, key: String, expires: Date, version: Int? = nil) -> String {
        "\(RequestOrigin.current)/v1/blobs/\(key)?\(signer.query(method: method, blobKey: key, expires: expires, version: version))"
    }

    private static func whole(_ date: Date) -> Date { Date(timeIntervalSince1970: floor(date.timeIntervalSince1970)) }
}
