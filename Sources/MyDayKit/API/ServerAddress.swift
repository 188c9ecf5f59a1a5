import Foundation

/// A server's address as a person types it on the sign-in screen.
public enum ServerAddress {
    /// The address as a URL: `https://` is assumed when no scheme is typed; only http and https with a host are
    /// taken. Nil for anything else.
    public static func url(from typed: String) -> URL? {
        let trimmed = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: false), !host.isEmpty
        else { return nil }
        return url
    }
}
