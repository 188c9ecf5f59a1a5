import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Prometheus
import Synchronization

/// bcrypt, run off the event loops. Passwords are SHA-256'd first so that all of a 128-character
/// password counts (bcrypt alone reads only 72 bytes).
struct PasswordHasher: Sendable {
    /// The work factor of every stored hash.
    static let productionCost: UInt8 = 12
    let cost: UInt8
    /// Where each bcrypt run is counted (`myday_auth_bcrypt_runs_total`): how much sign-in work the server does, and
    /// proof that an unknown email costs what a known one does.
    let registry: PrometheusCollectorRegistry?

    init(cost: UInt8 = productionCost, registry: PrometheusCollectorRegistry? = nil) {
        self.cost = cost
        self.registry = registry
    }

    private static let decoys = Mutex<[UInt8: String]>([:])

    /// A hash of a password nobody has, of this hasher's cost, so that an unknown email costs as much time as a wrong
    /// password. Made once per process.
    func decoyHash() async throws -> String {
        let cost = cost
        if let decoy = Self.decoys.withLock({ $0[cost] }) { return decoy }
        count("hash")
        let decoy = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(UUID().uuidString, cost: cost) }
        return Self.decoys.withLock { decoys in
            if let first = decoys[cost] { return first }
            decoys[cost] = decoy
            return decoy
        }
    }

    func hash(_ password: String) async throws -> String {
        let prepared = Self.prepare(password)
        let cost = cost
        count("hash")
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(prepared, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        let prepared = Self.prepare(password)
        count("verify")
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(prepared, hash: hash) }
    }

    private func count(_ kind: String) {
        registry?.makeCounter(
            descriptor: .init(
                namespace: "myday", subsystem: "auth", metricName: "bcrypt_runs", unitName: "total",
                helpText: "bcrypt computations for passwords (hash or verify)"),
            labels: [("kind", kind)]
        ).increment()
    }

    private static func prepare(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
