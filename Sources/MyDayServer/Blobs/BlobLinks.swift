import Foundation

/// Makes the signed, time-bound URLs of the disk blob store, served by `BlobRoutes`.
struct BlobLinks: Sendable {
    let signer: URLSigner
    let uploadLifetime: Duration
    let downloadLifetime: Duration

    init(signer: URLSigner, uploadLifetime: Duration, downloadLifetime: Duration) {
        self.signer = signer
        self.uploadLifetime = uploadLifetime
        self.downloadLifetime = downloadLifetime
    }

    /// The links of a server with this configuration and signing secret.
    init(configuration: ServerConfiguration, secret: [UInt8]) {
        self.init(
            signer: URLSigner(secret: secret), uploadLifetime: configuration.uploadURLLifetime,
            downloadLifetime: configuration.downloadURLLifetime)
    }

    func upload(key: String, now: Date = Date()) -> (url: String, expires: Date) {
        link(method: "PUT", key: key, expires: now.addingTimeInterval(uploadLifetime.seconds))
    }

    func download(key: String, now: Date = Date()) -> (url: String, expires: Date) {
        link(method: "GET", key: key, expires: now.addingTimeInterval(downloadLifetime.seconds))
    }

    /// A download link that stops working at `expires` (an export's, say, fixed when it was built).
    func download(key: String, expires: Date) -> (url: String, expires: Date) {
        link(method: "GET", key: key, expires: expires)
    }

    private func link(method: String, key: String, expires: Date) -> (url: String, expires: Date) {
        let whole = Date(timeIntervalSince1970: floor(expires.timeIntervalSince1970))
        return ("\(RequestOrigin.current)/v1/blobs/\(key)?\(signer.query(method: method, blobKey: key, expires: whole))", whole)
    }
}
