import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

/// The nonce of a Sign in with Apple request: Apple gets its SHA-256 (hex), the server the raw value, and the
/// server checks that the identity token carries the hash of what it was given.
public enum SignInNonce {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._")

    /// A fresh nonce of 32 characters from the system's secure random source, and its SHA-256 in lowercase hex.
    public static func make() -> (raw: String, sha256: String) {
        var generator = SystemRandomNumberGenerator()
        let raw = String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
        return (raw, sha256(raw))
    }

    /// Lowercase hex SHA-256 of the UTF-8 bytes, as Apple's sample code and the server compute it.
    public static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
