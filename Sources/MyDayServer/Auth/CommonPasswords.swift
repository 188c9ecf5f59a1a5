import Foundation

/// The passwords attackers try first; a new password may not be one of them (compared case-insensitively).
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

    static func contains(_ password: String) -> Bool { set.contains(password.lowercased()) }
}
