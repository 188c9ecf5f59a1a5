import Foundation
import MyDayModels

/// Checks of client input that the OpenAPI document cannot express; each failure says what to fix. Lengths are counted
/// in Unicode scalars, as the document's JSON Schema counts them (never grapheme clusters: a thousand combining marks
/// draw one character); control characters other than tab and line breaks are refused everywhere, NUL first of all.
enum Validation {
    /// Refuses control characters (Unicode's Cc: NUL, escape, the C1 range…), except tab and, where `lines`, line
    /// breaks; answers `text` unchanged.
    @discardableResult
    static func printable(_ text: String, field: String, lines: Bool = false) throws -> String {
        for scalar in text.unicodeScalars where scalar.properties.generalCategory == .control {
            if scalar == "\t" || (lines && (scalar == "\n" || scalar == "\r")) { continue }
            throw APIError.unprocessable("'\(field)' holds a control character (U+\(String(format: "%04X", scalar.value))).")
        }
        return text
    }

    /// Refuses `text` longer than `limit` Unicode scalars.
    private static func atMost(_ limit: Int, _ text: String, _ message: @autoclosure () -> String) throws {
        guard text.unicodeScalars.count <= limit else { throw APIError.unprocessable(message()) }
    }

    static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    static func email(_ raw: String) throws -> String {
        let email = normalizedEmail(try printable(raw, field: "email"))
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.unicodeScalars.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
        else { throw APIError.unprocessable("'email' is not an email address.") }
        return email
    }

    /// 8 to 128 characters not counting spaces at either end, no composition rules, and not a commonly used password
    /// (NIST SP 800-63B). Inner spaces count: a passphrase is a good password.
    static func newPassword(_ password: String, field: String = "password", email: String) throws -> String {
        try printable(password, field: field)
        guard password.unicodeScalars.count <= 128,
            password.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.count >= 8
        else {
            throw APIError.unprocessable(
                "'\(field)' must be 8 to 128 characters long, not counting spaces at either end.")
        }
        guard !CommonPasswords.contains(password) else {
            throw APIError.unprocessable(
                "'\(field)' is, or is made from, one of the most common passwords; choose one that is harder to guess.")
        }
        guard password.lowercased() != email.lowercased(),
            password.lowercased() != email.split(separator: "@").first.map({ $0.lowercased() })
        else { throw APIError.unprocessable("'\(field)' must not be the email address.") }
        return password
    }

    /// A person's name as a provider gave it: trimmed, at most 200 characters; empty means none.
    static func name(_ raw: String?) throws -> String? {
        guard let name = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        try printable(name, field: "name")
        try atMost(200, name, "A name can have at most 200 characters.")
        return name
    }

    static func id(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw APIError.badRequest("'\(text.prefix(40))' is not a UUID.") }
        return id
    }

    static func timeZone(_ identifier: String) throws -> TimeZone {
        guard identifier.unicodeScalars.count <= 64, (try? printable(identifier, field: "tz")) != nil,
            let zone = TimeZone(identifier: identifier)
        else {
            throw APIError.unprocessable("'tz' must be an IANA time zone such as Europe/Paris.")
        }
        return zone
    }

    /// A recording's start: not before 2000, and not more than a day ahead of the server's clock.
    static func recordingStart(_ date: Date, now: Date = Date()) throws -> Date {
        guard date >= Date(timeIntervalSince1970: 946_684_800), date <= now.addingTimeInterval(86_400) else {
            throw APIError.unprocessable("'created_at' must lie between 2000-01-01 and tomorrow.")
        }
        return date
    }

    static func duration(_ seconds: Double?) throws -> Double {
        let seconds = seconds ?? 0
        guard seconds.isFinite, (0...86_400).contains(seconds) else {
            throw APIError.unprocessable("'duration_s' must be 0 to 86400 seconds.")
        }
        return seconds
    }

    /// A BCP 47 tag such as `en` or `en-US`.
    static func language(_ tag: String?) throws -> String? {
        guard let tag else { return nil }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let valid =
            tag.count <= 35 && (2...3).contains(parts[0].count) && parts[0].allSatisfy(\.isASCIILetter)
            && parts.dropFirst().allSatisfy {
                (1...8).contains($0.count) && $0.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit }
            }
        guard valid else { throw APIError.unprocessable("'language' must be a BCP 47 tag such as en-US.") }
        return tag
    }

    /// A SHA-256 in lowercase hex, as an imported entry names its source.
    static func sourceSHA256(_ text: String?) throws -> String? {
        guard let text else { return nil }
        guard text.utf8.count == 64, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw APIError.unprocessable("'source_sha256' must be a SHA-256 in lowercase hex (64 characters).")
        }
        return text
    }

    static func title(_ title: String?) throws -> String? {
        guard let title else { return nil }
        try printable(title, field: "title")
        try atMost(200, title, "A title can have at most 200 characters (this one has \(title.unicodeScalars.count)).")
        return title.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func text(_ text: String?) throws -> String? {
        guard let text else { return nil }
        try printable(text, field: "text", lines: true)
        try atMost(100_000, text, "A text can have at most 100000 characters (this one has \(text.unicodeScalars.count)).")
        return text
    }

    /// Up to 20 distinct tags of 1 to 50 characters, trimmed, in the order given.
    static func tags(_ tags: [String]?) throws -> [String]? {
        guard let tags else { return nil }
        for tag in tags { try printable(tag, field: "tags") }
        // Counted as sent, as the schema's maxItems does, and again once repeats are gone.
        guard tags.count <= 20 else {
            throw APIError.unprocessable("An entry can have up to 20 tags, each of 1 to 50 characters.")
        }
        var seen = Set<String>()
        let cleaned = tags.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { seen.insert($0).inserted }
        guard cleaned.count <= 20, cleaned.allSatisfy({ (1...50).contains($0.unicodeScalars.count) }) else {
            throw APIError.unprocessable("An entry can have up to 20 tags, each of 1 to 50 characters.")
        }
        return cleaned
    }

    static func mood(_ mood: Int?) throws -> Int? {
        guard let mood else { return nil }
        guard (0...5).contains(mood) else { throw APIError.unprocessable("A mood is 1 to 5 (0 removes it).") }
        return mood
    }
}

extension Character {
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
