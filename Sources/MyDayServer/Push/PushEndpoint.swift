import Foundation
import MyDayModels

/// Which URLs the server posts push messages to: a browser's push service only, never a host of the person's
/// choosing. An endpoint must be https on one of `services` (a host, or any host under it); a loopback host listed
/// there may be plain http (a push service for tests).
struct PushEndpoint: Sendable {
    /// The push services of Chrome and Edge (FCM), Firefox (Mozilla autopush), Safari (Apple) and Windows (WNS).
    static let knownServices = [
        "fcm.googleapis.com", "android.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com",
    ]

    let services: [String]

    /// The endpoint as a URL, or why it is refused.
    func check(_ text: String) -> Result<URL, PushEndpointRefusal> {
        guard text.utf8.count <= 2048, let url = URL(string: text), let host = url.host?.lowercased(), url.user == nil,
            url.password == nil
        else { return .failure(.notAURL) }
        guard services.contains(where: { host == $0 || host.hasSuffix("." + $0) }) else {
            return .failure(.notAPushService(host))
        }
        guard url.scheme == "https" || (url.scheme == "http" && Loopback.isHost(host)) else { return .failure(.notHTTPS) }
        return .success(url)
    }

    /// `scheme://host[:port]`: the audience of the VAPID token (RFC 8292 §2).
    static func origin(of url: URL) -> String {
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(url.scheme ?? "https")://\(url.host ?? "")\(port)"
    }
}

/// Why an endpoint is not one the server posts to.
enum PushEndpointRefusal: Error, Equatable, CustomStringConvertible {
    case notAURL, notHTTPS
    case notAPushService(String)

    var description: String {
        switch self {
        case .notAURL: "'endpoint' must be the push service URL the browser gave."
        case .notHTTPS: "'endpoint' must be an https URL."
        case .notAPushService(let host):
            "'\(host)' is not a push service this server sends to (MYDAY_PUSH_SERVICES lists them)."
        }
    }
}
