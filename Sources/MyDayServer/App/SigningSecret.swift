import Foundation

/// The server's signing key: `MYDAY_SECRET`, or a random one created once and kept (0600) in the data directory.
enum SigningSecret {
    static func load(configured: String?, file: URL) throws -> [UInt8] {
        if let configured {
            if let weakness = weakness(of: configured) {
                throw ConfigurationError("MYDAY_SECRET is \(weakness); make one with `openssl rand -hex 32`")
            }
            return Array(configured.utf8)
        }
        if let existing = try? String(contentsOf: file, encoding: .utf8) {
            let trimmed = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            if let weakness = weakness(of: trimmed) {
                throw ConfigurationError("\(file.path) holds no usable secret: it is \(weakness)")
            }
            return Array(trimmed.utf8)
        }
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let created = FileManager.default.createFile(
            atPath: file.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600])
        guard created else { throw ConfigurationError("cannot write the generated secret to \(file.path)") }
        return Array(secret.utf8)
    }

    /// Words that mark a placeholder someone forgot to replace.
    private static let placeholders = ["change", "example", "secret", "password", "replace", "xxxx", "random"]

    /// Why a secret is too weak to sign tokens with, or nil: at least 32 characters, no placeholder word, at least 10
    /// distinct characters, at least 128 bits for its alphabet (hex digits 4 bits each, base64's 6, anything else 6.5)
    /// and at least 100 by its characters' frequencies, which repetition lowers (random hex: about 3.5 bits each).
    static func weakness(of secret: String) -> String? {
        let characters = Array(secret.unicodeScalars)
        guard characters.count >= 32 else { return "shorter than 32 characters" }
        let lowered = secret.lowercased()
        if let word = placeholders.first(where: { lowered.contains($0) }) { return "a placeholder (it says '\(word)')" }
        var counts: [Unicode.Scalar: Int] = [:]
        for character in characters { counts[character, default: 0] += 1 }
        guard counts.count >= 10 else { return "made of fewer than 10 different characters" }
        let length = Double(characters.count)
        let frequencyBits =
            length
            * counts.values.reduce(0.0) { bits, count in
                let share = Double(count) / length
                return bits - share * log2(share)
            }
        let isHex = characters.allSatisfy { $0.properties.isASCIIHexDigit }
        let isBase64 = characters.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "+/-_=".unicodeScalars.contains($0))
        }
        let alphabetBits = length * (isHex ? 4 : isBase64 ? 6 : 6.5)
        guard alphabetBits >= 128, frequencyBits >= 100 else { return "too predictable (under 128 bits)" }
        return nil
    }
}
