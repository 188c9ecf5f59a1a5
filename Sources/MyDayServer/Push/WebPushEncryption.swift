import Crypto
import Foundation

/// Encrypts a push message for one browser as RFC 8291 says: `aes128gcm` content coding (RFC 8188) with a key
/// agreed between a one-time P-256 key of ours and the browser's `p256dh`, mixed with its `auth` secret.
enum WebPushEncryption {
    /// Why a subscription's keys cannot be used.
    enum KeyError: Error, Equatable {
        case badPublicKey, badAuthSecret
    }

    /// The record size written in the header; one record holds any message we send.
    static let recordSize: UInt32 = 4096

    /// The message body to post: salt, record size, our one-time public key, then the sealed record.
    /// `senderKey` and `salt` are fresh for every message; tests pass RFC 8291's to compare with its example.
    static func encrypt(
        _ plaintext: Data, browserKey p256dh: Data, authSecret: Data,
        senderKey: P256.KeyAgreement.PrivateKey = .init(), salt: Data = randomSalt()
    ) throws -> Data {
        guard let browserKey = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) else {
            throw KeyError.badPublicKey
        }
        guard authSecret.count == 16 else { throw KeyError.badAuthSecret }
        let senderPublic = senderKey.publicKey.x963Representation
        let shared = try senderKey.sharedSecretFromKeyAgreement(with: browserKey)
        // RFC 8291 §3.4: IKM from the ECDH secret, keyed by the auth secret, bound to both public keys.
        let keyInfo = Data("WebPush: info".utf8) + [0] + browserKey.x963Representation + senderPublic
        let inputKey = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: the content key and nonce from the salt.
        let contentKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKey, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKey, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // One record, the last: the message, then the delimiter 0x02, no padding.
        let sealed = try AES.GCM.seal(
            plaintext + [2], using: contentKey, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        var header = salt
        withUnsafeBytes(of: recordSize.bigEndian) { header.append(contentsOf: $0) }
        header.append(UInt8(senderPublic.count))
        header.append(senderPublic)
        return header + sealed.ciphertext + sealed.tag
    }

    static func randomSalt() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
