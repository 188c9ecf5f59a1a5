import Crypto
import Foundation
import JWTKit

/// The key the server signs its push requests with (VAPID, RFC 8292): browsers subscribe with its public half, and
/// push services take only messages signed by it. `MYDAY_VAPID_PRIVATE_KEY` (PEM); else, with `MYDAY_SECRET` (which
/// every node of a deployment shares), one derived from it, so all nodes sign alike; else one generated once and kept
/// (0600) in the data directory.
struct VAPIDKey: Sendable {
    let privateKey: P256.Signing.PrivateKey

    /// The uncompressed public point, base64url: the `applicationServerKey` browsers subscribe with.
    var publicKey: String { privateKey.publicKey.x963Representation.base64URLEncodedString() }

    static func load(configuredPEM: String?, sharedSecret: [UInt8]?, file: URL) throws -> VAPIDKey {
        if let configuredPEM {
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: configuredPEM) else {
                throw ConfigurationError("MYDAY_VAPID_PRIVATE_KEY is not a P-256 private key in PEM")
            }
            return VAPIDKey(privateKey: key)
        }
        if let sharedSecret { return derived(from: sharedSecret) }
        if let existing = try? String(contentsOf: file, encoding: .utf8) {
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: existing) else {
                throw ConfigurationError("\(file.path) holds no P-256 private key; remove it to make a new one")
            }
            return VAPIDKey(privateKey: key)
        }
        let key = P256.Signing.PrivateKey()
        let created = FileManager.default.createFile(
            atPath: file.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
        guard created else { throw ConfigurationError("cannot write the generated push key to \(file.path)") }
        return VAPIDKey(privateKey: key)
    }

    /// The key derived from `secret`: 32 bytes of HKDF, again with the next counter in the rare case (about 2⁻³²)
    /// that they are not a valid P-256 scalar.
    static func derived(from secret: [UInt8]) -> VAPIDKey {
        for counter in 0...UInt8.max {
            let bytes = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: secret), info: Data("myday vapid key \(counter)".utf8), outputByteCount: 32)
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes.withUnsafeBytes { Data($0) }) {
                return VAPIDKey(privateKey: key)
            }
        }
        preconditionFailure("256 HKDF outputs in a row were not P-256 scalars")
    }

    /// The `Authorization` header for a request to `endpoint`'s push service: a JWT for its origin, valid 12 hours,
    /// naming who to contact (`subject`, a `mailto:` or `https:` URL), and the public key.
    func authorization(for endpoint: URL, subject: String, now: Date) async throws -> String {
        let origin = PushEndpoint.origin(of: endpoint)
        let claims = Claims(aud: origin, exp: Int(now.timeIntervalSince1970) + 12 * 3600, sub: subject)
        let token = try await JWTKeyCollection().add(ecdsa: ES256PrivateKey(backing: privateKey)).sign(claims)
        return "vapid t=\(token), k=\(publicKey)"
    }

    private struct Claims: JWTPayload {
        let aud: String
        let exp: Int
        let sub: String

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
