import Foundation

/// The server's signing key: `MYDAY_SECRET`, or a random one created once and kept (0600) in the data directory.
enum SigningSecret {
    static func load(configured: String?, file: URL) throws -> [UInt8] {
        if let configured {
            guard configured.utf8.count >= 32 else {
                throw ConfigurationError("MYDAY_SECRET must be at least 32 characters long")
            }
            return Array(configured.utf8)
        }
        if let existing = try? String(contentsOf: file, encoding: .utf8) {
            let trimmed = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.utf8.count >= 32 else { throw ConfigurationError("\(file.path) holds no usable secret") }
            return Array(trimmed.utf8)
        }
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let created = FileManager.default.createFile(
            atPath: file.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600])
        guard created else { throw ConfigurationError("cannot write the generated secret to \(file.path)") }
        return Array(secret.utf8)
    }
}
