/// The passwords attackers try first; a new password may not be one of them (compared case-insensitively).
enum CommonPasswords {
    static let set: Set<String> = Set(list.split(separator: "\n").map { $0.lowercased() })

    static func contains(_ password: String) -> Bool { set.contains(password.lowercased()) }
}
