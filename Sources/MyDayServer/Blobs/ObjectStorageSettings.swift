import Configuration
import Foundation
import ObjectStorage

/// The bucket blobs go to instead of the data directory: `MYDAY_S3_BUCKET` turns it on; the keys, region and endpoint
/// come from `MYDAY_S3_*`, or the standard `AWS_*` variables.
package struct ObjectStorageSettings: Sendable, Equatable {
    package var location: S3Location
    package var credentials: S3Credentials

    package init(location: S3Location, credentials: S3Credentials) {
        self.location = location
        self.credentials = credentials
    }

    /// The settings in `reader`; nil without `MYDAY_S3_BUCKET`.
    init?(reader: ConfigReader) throws {
        let config = reader.scoped(to: "myday.s3")
        guard let bucket = config.string(forKey: "bucket") else {
            for key in ["endpoint", "region", "access.key.id", "secret.access.key", "session.token", "addressing", "prefix"]
            where config.string(forKey: ConfigKey(key), isSecret: true) != nil {
                throw ConfigurationError(
                    "MYDAY_S3_\(key.uppercased().replacingOccurrences(of: ".", with: "_")) is set "
                        + "but MYDAY_S3_BUCKET is not: name the bucket, or unset the rest")
            }
            return nil
        }
        guard Self.isValidBucketName(bucket) else {
            throw ConfigurationError("MYDAY_S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, '.' and '-'")
        }
        var endpoint: URL?
        // AWS's own tools name another service's endpoint in AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL.
        if let text = config.string(forKey: "endpoint") ?? reader.string(forKey: "aws.endpoint.url.s3")
            ?? reader.string(forKey: "aws.endpoint.url"), !text.isEmpty
        {
            guard let url = URL(string: text), let host = url.host, !host.isEmpty, ["http", "https"].contains(url.scheme ?? ""),
                url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw ConfigurationError(
                    "MYDAY_S3_ENDPOINT must be the service's base URL, such as https://s3.example.com or http://127.0.0.1:9000")
            }
            endpoint = url
        }
        let region =
            config.string(forKey: "region") ?? reader.string(forKey: "aws.region")
            ?? reader.string(forKey: "aws.default.region") ?? "us-east-1"
        var addressing: S3Location.Addressing?
        if let text = config.string(forKey: "addressing") {
            guard let chosen = S3Location.Addressing(rawValue: text) else {
                throw ConfigurationError("MYDAY_S3_ADDRESSING must be path or virtual, not \(text)")
            }
            addressing = chosen
        }
        var prefix = config.string(forKey: "prefix") ?? ""
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        guard prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) }), !prefix.hasPrefix("/")
        else {
            throw ConfigurationError(
                "MYDAY_S3_PREFIX may hold letters, digits, '-', '_', '.' and '/' (not first), such as myday/")
        }
        guard
            let keyID = config.string(forKey: "access.key.id") ?? reader.string(forKey: "aws.access.key.id"),
            let secret = config.string(forKey: "secret.access.key", isSecret: true)
                ?? reader.string(forKey: "aws.secret.access.key", isSecret: true)
        else {
            throw ConfigurationError(
                "MYDAY_S3_BUCKET needs MYDAY_S3_ACCESS_KEY_ID and MYDAY_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and "
                    + "AWS_SECRET_ACCESS_KEY)")
        }
        if addressing == .virtualHosted, bucket.contains("."), endpoint?.scheme ?? "https" == "https" {
            throw ConfigurationError(
                "MYDAY_S3_ADDRESSING=virtual cannot reach a bucket whose name has a dot over https (no certificate "
                    + "matches it): use path, or a name without dots")
        }
        let token =
            config.string(forKey: "session.token", isSecret: true) ?? reader.string(forKey: "aws.session.token", isSecret: true)
        location = S3Location(bucket: bucket, endpoint: endpoint, region: region, addressing: addressing, keyPrefix: prefix)
        credentials = S3Credentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: token)
    }

    /// S3's rules for new bucket names, which every compatible service accepts.
    static func isValidBucketName(_ name: String) -> Bool {
        (3...63).contains(name.count)
            && name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
            && name.first.map { $0.isLetter || $0.isNumber } == true && name.last.map { $0.isLetter || $0.isNumber } == true
    }
}

extension ObjectStorageSettings: CustomStringConvertible {
    /// Names the bucket and where it is; never the keys.
    package var description: String {
        "bucket \(location.bucket) at \(location.endpoint.absoluteString) (\(location.region), \(location.addressing.rawValue)-style"
            + (location.keyPrefix.isEmpty ? ")" : ", keys under \(location.keyPrefix))")
    }
}
