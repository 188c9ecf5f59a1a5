import Foundation

/// The passwords attackers try first; a new password may not be one of them (compared case-insensitively), nor one of
/// them with digits or symbols around it or letters swapped for look-alikes.
///
/// The list is `Resources/common-passwords.txt`: the 10,000 most common passwords, most common first, from SecLists
/// by Daniel Miessler and contributors (commit 4f84b3c2, Passwords/Common-Credentials/10k-most-common.txt),
/// MIT License: docs/licenses/SecLists-LICENSE.txt.
enum CommonPasswords {
    static let set: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { preconditionFailure("common-passwords.txt is missing from the server's resources") }
        return Set(text.split(separator: "\n").map { $0.lowercased() })
    }()

    /// Whether `password` is a common one, or one dressed up: digits and symbols added before or after
    /// ("password123", "!welcome2024"), letters written as digits or symbols ("p@ssw0rd").
    static func contains(_ password: String) -> Bool {
        let lowered = password.lowercased()
        let trimmed = core(lowered)
        let candidates = [lowered, trimmed, plain(lowered), core(plain(lowered)), plain(trimmed)]
        return candidates.contains { !$0.isEmpty && set.contains($0) }
    }

    /// Without the digits and symbols before and after the letters.
    private static func core(_ text: String) -> String { text.trimmingCharacters(in: .letters.inverted) }

    /// With look-alikes read as the letters they stand for.
    private static func plain(_ text: String) -> String { String(text.map { lookalikes[$0] ?? $0 }) }

    /// Digits and symbols people write for letters.
    private static let lookalikes: [Character: Character] = [
        "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i",
    ]
}
