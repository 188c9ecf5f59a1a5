import Crypto
import Foundation

/// Encrypts secrets the server must keep but never show (a provider's refresh token) with AES-GCM, under a key
/// derived from the server's secret: a copy of the database alone does not reveal them. A new `MYDAY_SECRET` makes
/// what was sealed before unreadable.
struct SecretSealer: Sendable {
    private let key: SymmetricKey

    init(secret: [UInt8], purpose: String) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret), info: Data("myday sealed \(purpose)".utf8), outputByteCount: 32)
    }

    /// `v1.` and the nonce, ciphertext and tag, base64.
    func seal(_ plaintext: String) throws -> String {
        guard let combined = try AES.GCM.seal(Data(plaintext.utf8), using: key).combined else {
            throw SealingError("AES-GCM gave no combined form")
        }
        return "v1." + combined.base64EncodedString()
    }

    func open(_ sealed: String) throws -> String {
        guard sealed.hasPrefix("v1."), let combined = Data(base64Encoded: String(sealed.dropFirst(3))) else {
            throw SealingError("not a sealed value")
        }
        do {
            let plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key)
            guard let text = String(data: plaintext, encoding: .utf8) else { throw SealingError("not text") }
            return text
        } catch let error as SealingError {
            throw error
        } catch {
            throw SealingError("sealed with another secret, or damaged")
        }
    }

    struct SealingError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
