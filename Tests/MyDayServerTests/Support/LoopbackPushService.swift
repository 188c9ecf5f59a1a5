import Crypto
import Foundation
import Hummingbird
import OpenAIStandIns
import Synchronization
import Testing

@testable import MyDayServer

/// A push service on loopback that speaks RFC 8030 to the server and reads what it receives as a browser would:
/// it checks the VAPID token (RFC 8292) and decrypts the message (RFC 8291) with the browser's own keys.
/// `POST /push/<name>` answers 201, or 410 for a name starting with `gone`.
final class LoopbackPushService: Sendable {
    /// A browser: the keys it subscribed with.
    struct Browser: Sendable {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })

        var p256dh: String { key.publicKey.x963Representation.base64URLEncodedString() }
        var authText: String { auth.base64URLEncodedString() }
    }

    /// One request as received.
    struct Received: Sendable {
        let name: String
        let headers: [String: String]
        let body: Data
    }

    private let received = Mutex<[Received]>([])

    func requests(to name: String) -> [Received] { received.withLock { $0.filter { $0.name == name } } }

    /// Runs the service on a loopback port for `body`.
    func run<T: Sendable>(_ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/push/:name") { [self] request, context -> Response in
            let name = try context.parameters.require("name")
            let bytes = try await request.body.collect(upTo: 8192)
            var headers: [String: String] = [:]
            // By lowercased name, as HTTP/2 and HTTPTypes spell them.
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            self.received.withLock { $0.append(Received(name: name, headers: headers, body: Data(buffer: bytes))) }
            return Response(status: name.hasPrefix("gone") ? .gone : .created)
        }
        return try await LoopbackApp.run(router, body)
    }

    /// The message of a request, decrypted with the browser's keys as RFC 8291 §3.4 and RFC 8188 describe.
    static func decrypt(_ body: Data, for browser: Browser) throws -> Data {
        let bytes = [UInt8](body)
        let salt = Data(bytes[0..<16])
        let idLength = Int(bytes[20])
        let senderPublic = Data(bytes[21..<(21 + idLength)])
        let record = Data(bytes[(21 + idLength)...])
        let sender = try P256.KeyAgreement.PublicKey(x963Representation: senderPublic)
        let shared = try browser.key.sharedSecretFromKeyAgreement(with: sender)
        let info = Data("WebPush: info\0".utf8) + browser.key.publicKey.x963Representation + senderPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: browser.auth, sharedInfo: info, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }), ciphertext: record.dropLast(16),
            tag: record.suffix(16))
        var plain = try AES.GCM.open(box, using: cek)
        // The last record ends with 0x02, then padding zeros.
        while plain.last == 0 { plain.removeLast() }
        guard plain.last == 2 else { throw DecryptionError() }
        return plain.dropLast()
    }

    struct DecryptionError: Error {}

    /// The claims of a `vapid t=…, k=…` header, when its signature verifies with `k`; and `k`.
    static func vapidClaims(_ authorization: String) throws -> (claims: [String: Any], key: String) {
        let parts = authorization.dropFirst("vapid ".count).components(separatedBy: ", ")
        let token = try #require(parts.first { $0.hasPrefix("t=") }).dropFirst(2)
        let key = String(try #require(parts.first { $0.hasPrefix("k=") }).dropFirst(2))
        let pieces = token.split(separator: ".").map(String.init)
        guard pieces.count == 3, let signature = Data(base64URLEncoded: pieces[2]),
            let claims = Data(base64URLEncoded: pieces[1]), let header = Data(base64URLEncoded: pieces[0]),
            let publicKey = Data(base64URLEncoded: key)
        else { throw DecryptionError() }
        let verifier = try P256.Signing.PublicKey(x963Representation: publicKey)
        guard
            verifier.isValidSignature(
                try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data("\(pieces[0]).\(pieces[1])".utf8)),
            (try JSONSerialization.jsonObject(with: header) as? [String: Any])?["alg"] as? String == "ES256"
        else { throw DecryptionError() }
        return (try JSONSerialization.jsonObject(with: claims) as? [String: Any] ?? [:], key)
    }
}
