import Crypto
import Foundation

/// Opaque refresh tokens: 256 random bits for the client, only their SHA-256 in the database.
enum RefreshTokens {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64URLEncodedString()
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
