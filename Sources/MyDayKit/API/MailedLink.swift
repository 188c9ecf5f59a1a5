import Foundation

/// The links the server mails (`…/#/verify/<token>`, `…/#/reset/<token>`): their token, whether a person pasted the
/// whole link or only the token.
public enum MailedLink {
    public static func token(in text: String, page: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let range = trimmed.range(of: "#/\(page)/") else { return trimmed }
        return String(trimmed[range.upperBound...])
    }

    /// The token of a link that proves the address and so may set a password: a reset link or a confirmation link.
    public static func passwordSettingToken(in text: String) -> String {
        token(in: token(in: text, page: "reset"), page: "verify")
    }
}
