import Crypto
import Foundation

/// Signs and checks time-bound blob URLs: an HMAC-SHA256 over method, key and expiry.
struct URLSigner: Sendable {
    private let key: SymmetricKey

    init(secret: [UInt8]) {
        key = SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(for: Data("myday blob urls".utf8), using: SymmetricKey(data: secret)))
    }

    /// The query string (`expires=…&signature=…`) that lets `method` reach `blobKey` until `expires`; with `version`
    /// (`v=…`, signed too), only while the owner's sessions are of that version.
    func query(method: String, blobKey: String, expires: Date, version: Int? = nil) -> String {
        let seconds = Int(expires.timeIntervalSince1970)
        let signed = signature(method: method, blobKey: blobKey, expires: seconds, version: version)
        return "expires=\(seconds)" + (version.map { "&v=\($0)" } ?? "") + "&signature=\(signed)"
    }

    enum Verdict: Equatable { case valid, expired, invalid }

    func verify(
        method: String, blobKey: String, expires: String?, version: String? = nil, signature: String?, now: Date = Date()
    ) -> Verdict {
        guard let expires, let seconds = Int(expires), let signature, let mac = Data(base64URLEncoded: signature) else {
            return .invalid
        }
        let number = version.flatMap { Int($0) }
        guard version == nil || number != nil,
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: Self.message(method, blobKey, seconds, number), using: key)
        else {
            return .invalid
        }
        return Double(seconds) < now.timeIntervalSince1970 ? .expired : .valid
    }

    private func signature(method: String, blobKey: String, expires: Int, version: Int?) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Self.message(method, blobKey, expires, version), using: key))
            .base64URLEncodedString()
    }

    private static func message(_ method: String, _ blobKey: String, _ expires: Int, _ version: Int?) -> Data {
        Data(("\(method.uppercased())\n\(blobKey)\n\(expires)" + (version.map { "\nv\($0)" } ?? "")).utf8)
    }
}

extension Data {
    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
    func base64URLEncodedString() -> String {
        // Byte by byte: Foundation's replacingOccurrences cost a search's cursor more than marking a snippet.
        var bytes = Array(base64EncodedData())
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "+") {
                bytes[index] = UInt8(ascii: "-")
            } else if bytes[index] == UInt8(ascii: "/") {
                bytes[index] = UInt8(ascii: "_")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
