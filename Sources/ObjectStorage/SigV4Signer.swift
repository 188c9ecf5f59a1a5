import Crypto
import Foundation

/// The keys a request is signed with; `sessionToken` only for temporary credentials.
package struct S3Credentials: Sendable, Equatable {
    package var accessKeyID: String
    package var secretAccessKey: String
    package var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// Printed, dumped or logged, credentials show the access key id alone: never the secret or the session token.
extension S3Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "S3Credentials(access key \(accessKeyID), secret hidden)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["accessKeyID": accessKeyID], displayStyle: .struct) }
}

/// A request as AWS Signature Version 4 sees it: the path and query unencoded, the headers as sent.
package struct SignableRequest: Sendable, Equatable {
    package var method: String
    /// The path, unencoded (`/bucket/audio/a b`); it is percent-encoded once, as S3 expects.
    package var path: String
    /// Query parameters, unencoded, in the order they are sent.
    package var query: [(name: String, value: String)]
    /// Header fields, including `Host`, in the order they are sent.
    package var headers: [(name: String, value: String)]

    package init(
        method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The path and query as they go on the wire.
    package var encodedTarget: String {
        let path = SigV4Signer.encodePath(path)
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { SigV4Signer.encode($0.name) + "=" + SigV4Signer.encode($0.value) }.joined(separator: "&")
    }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    package static func == (lhs: SignableRequest, rhs: SignableRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query.elementsEqual(rhs.query, by: ==)
            && lhs.headers.elementsEqual(rhs.headers, by: ==)
    }
}

/// AWS Signature Version 4 (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html),
/// as S3 reads it: the path is encoded once and never normalised. Signs with an `Authorization` header or presigns a
/// URL whose query carries the signature.
package struct SigV4Signer: Sendable {
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    static let algorithm = "AWS4-HMAC-SHA256"

    package let credentials: S3Credentials
    package let region: String
    package let service: String

    package init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// Adds `X-Amz-Date`, the session token when there is one, and `Authorization` to `request`; `payloadHash` is the
    /// body's SHA-256 in hex, or `unsignedPayload`. Headers named in `unsigned` (lowercased) are sent but not signed.
    package func sign(_ request: inout SignableRequest, payloadHash: String, at date: Date, unsigned: Set<String> = []) {
        let stamp = Timestamp(date)
        request.headers.removeAll { ["x-amz-date", "authorization"].contains($0.name.lowercased()) }
        request.headers.append(("X-Amz-Date", stamp.dateTime))
        if let token = credentials.sessionToken {
            request.headers.removeAll { $0.name.lowercased() == "x-amz-security-token" }
            request.headers.append(("X-Amz-Security-Token", token))
        }
        let signed = Self.canonicalHeaders(request.headers.filter { !unsigned.contains($0.name.lowercased()) })
        let canonical = Self.canonicalRequest(request, headers: signed, payloadHash: payloadHash)
        let signature = self.signature(of: canonical, at: stamp)
        request.headers.append(
            (
                "Authorization",
                "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(stamp)), "
                    + "SignedHeaders=\(signed.names), Signature=\(signature)"
            ))
    }

    /// `request` with the signature in its query, usable by anyone for `expires` seconds (at most a week). Every header
    /// of `request` is signed, so whoever uses the URL must send exactly those (a content type and length, say).
    package func presign(_ request: SignableRequest, expires: Int, at date: Date) -> SignableRequest {
        let stamp = Timestamp(date)
        let signed = Self.canonicalHeaders(request.headers)
        var presigned = request
        presigned.query += [
            ("X-Amz-Algorithm", Self.algorithm),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(stamp))"),
            ("X-Amz-Date", stamp.dateTime),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", signed.names),
        ]
        if let token = credentials.sessionToken { presigned.query.append(("X-Amz-Security-Token", token)) }
        let canonical = Self.canonicalRequest(presigned, headers: signed, payloadHash: Self.unsignedPayload)
        presigned.query.append(("X-Amz-Signature", signature(of: canonical, at: stamp)))
        return presigned
    }

    // MARK: - The steps of the specification

    struct Timestamp {
        /// `20150830T123600Z`
        let dateTime: String
        /// `20150830`
        var day: Substring { dateTime.prefix(8) }

        init(_ date: Date) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
            dateTime =
                "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
        }
    }

    struct CanonicalHeaders {
        /// `name:value\n` lines, sorted by name.
        let lines: String
        /// `host;x-amz-date`
        let names: String
    }

    func scope(_ stamp: Timestamp) -> String { "\(stamp.day)/\(region)/\(service)/aws4_request" }

    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> CanonicalHeaders {
        var values: [String: [String]] = [:]
        for (name, value) in headers { values[name.lowercased(), default: []].append(trimmed(value)) }
        let names = values.keys.sorted()
        return CanonicalHeaders(
            lines: names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined(),
            names: names.joined(separator: ";"))
    }

    static func canonicalRequest(_ request: SignableRequest, headers: CanonicalHeaders, payloadHash: String) -> String {
        let pairs: [(name: String, value: String)] = request.query.map { (encode($0.name), encode($0.value)) }
        let sorted = pairs.sorted { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let query = sorted.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
        return [request.method, encodePath(request.path), query, headers.lines, headers.names, payloadHash]
            .joined(separator: "\n")
    }

    func stringToSign(_ canonicalRequest: String, at stamp: Timestamp) -> String {
        [Self.algorithm, stamp.dateTime, scope(stamp), Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
    }

    func signature(of canonicalRequest: String, at stamp: Timestamp) -> String {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [String(stamp.day), region, service, "aws4_request"] {
            key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign(canonicalRequest, at: stamp).utf8), using: key))
    }

    // MARK: - Encoding

    /// Percent-encodes every byte but RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`), as SigV4 requires.
    package static func encode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// Each segment of `path` encoded, the slashes kept; an empty path is `/`.
    package static func encodePath(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { encode(String($0)) }.joined(separator: "/")
    }

    /// Trims a header value and folds runs of spaces into one, as the canonical form requires.
    static func trimmed(_ value: String) -> String {
        var result = ""
        var lastWasSpace = false
        for character in value.trimmingCharacters(in: .whitespaces) {
            if character == " " {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else {
                result.append(character)
                lastWasSpace = false
            }
        }
        return result
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

extension SHA256.Digest {
    /// The digest in lowercase hex, as SigV4 writes hashes.
    package var hex: String { SigV4Signer.hex(self) }
}
