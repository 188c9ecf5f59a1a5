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

    /// What a link of this server's mail asks for, when one opens the app (a universal link): confirm an address, or
    /// set a new password with its token; nil for any other URL.
    public enum Request: Sendable, Equatable {
        case confirmAddress(token: String)
        case setPassword(token: String)
    }

    public static func request(in url: URL) -> Request? {
        guard let fragment = url.fragment, url.path.isEmpty || url.path == "/" else { return nil }
        let parts = fragment.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, let token = parts.last.map(String.init),
            token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), token.unicodeScalars.allSatisfy(\.isASCII)
        else { return nil }
        switch parts[0] {
        case "verify": return .confirmAddress(token: token)
        case "reset": return .setPassword(token: token)
        default: return nil
        }
    }
}
