import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run off the event loops. Passwords are SHA-256'd first so that all of a 128-character
/// password counts (bcrypt alone reads only 72 bytes).
struct PasswordHasher: Sendable {
    let cost: UInt8

    init(cost: UInt8) {
        precondition(cost >= 12, "bcrypt cost below 12 is too weak for passwords")
        self.cost = cost
    }

    /// A hash of a password nobody has, so that an unknown email costs as much time as a wrong password.
    static let decoyHash = Bcrypt.hash(UUID().uuidString, cost: 12)

    func hash(_ password: String) async throws -> String {
        let prepared = Self.prepare(password)
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(prepared, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        let prepared = Self.prepare(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(prepared, hash: hash) }
    }

    private static func prepare(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
