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

    /// The typed address is `current`'s ("example.com" for https://example.com): using it would change nothing.
    public static func names(_ typed: String, current: URL) -> Bool {
        url(from: typed) == current
    }

    /// The server a device talks to: the one the person chose (`stored`), else the one the build configures, else
    /// this machine's (a development build).
    public static func initial(stored: String?, configured: String?) -> URL {
        if let stored, let url = URL(string: stored) { return url }
        if let configured = buildSetting(configured), let url = URL(string: configured), url.scheme != nil { return url }
        return URL(string: "http://localhost:8080")!
    }

    /// A build setting's value as Info.plist holds it; nil when the build sets none (empty, or left as `$(NAME)`).
    public static func buildSetting(_ value: String?) -> String? {
        let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let trimmed, !trimmed.isEmpty, !trimmed.hasPrefix("$(") else { return nil }
        return trimmed
    }
}
