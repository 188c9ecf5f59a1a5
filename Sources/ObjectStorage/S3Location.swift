import Foundation

/// Where a bucket is and how its URLs are written.
package struct S3Location: Sendable, Equatable {
    package enum Addressing: String, Sendable {
        /// `https://endpoint/bucket/key`: MinIO, Garage, Ceph and most servers of one's own.
        case path
        /// `https://bucket.endpoint/key`: AWS, R2 and Google Cloud Storage.
        case virtualHosted = "virtual"
    }

    package var bucket: String
    /// The service's base URL (`https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`).
    package var endpoint: URL
    package var region: String
    package var addressing: Addressing
    /// Put before every key (`myday/`), so that one bucket can hold other things too.
    package var keyPrefix: String

    /// A bucket at `endpoint`, or on AWS in `region` when `endpoint` is nil (then virtual-hosted by default, unless the
    /// bucket's name has a dot: `my.bucket.s3…` matches no wildcard certificate, so such buckets go path-style).
    package init(bucket: String, endpoint: URL?, region: String, addressing: Addressing? = nil, keyPrefix: String = "") {
        self.bucket = bucket
        self.endpoint = endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")!
        self.region = region
        self.addressing = addressing ?? (endpoint == nil && !bucket.contains(".") ? .virtualHosted : .path)
        self.keyPrefix = keyPrefix
    }

    /// `https` or `http`.
    var scheme: String { endpoint.scheme ?? "https" }

    /// The `Host` header of every request: the bucket's own host name when virtual-hosted.
    var host: String {
        let name = endpoint.host ?? ""
        let base = addressing == .virtualHosted ? "\(bucket).\(name)" : name
        guard let port = endpoint.port, port != (scheme == "https" ? 443 : 80) else { return base }
        return "\(base):\(port)"
    }

    /// The origin clients send uploads to (for the web app's content security policy).
    package var origin: String { "\(scheme)://\(host)" }

    /// The unencoded path of the object `key` (the prefix added), or of the bucket when `key` is nil.
    func path(of key: String?) -> String {
        let bucketPath = addressing == .path ? "/\(bucket)" : ""
        guard let key else { return bucketPath.isEmpty ? "/" : bucketPath }
        return "\(bucketPath)/\(keyPrefix)\(key)"
    }

    /// The URL of a signed request.
    func url(of request: SignableRequest) -> String { "\(scheme)://\(host)\(request.encodedTarget)" }
}
