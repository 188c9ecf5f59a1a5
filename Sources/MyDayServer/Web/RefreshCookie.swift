import Foundation
import HTTPTypes
import Hummingbird

/// The cookie that holds the web app's refresh token (ADR 0015). Over HTTPS it is `__Host-myday_refresh` on `/`: a
/// browser takes such a cookie only from this very origin, so a neighbouring subdomain cannot plant a live session of
/// its own (another account's) for the page to go on with. Over plain HTTP no prefix holds; it is `myday_refresh`, sent
/// to the web session's routes only.
struct RefreshCookie: Sendable {
    /// Where the web session's routes are; the plain cookie's path.
    static let webSessionPath = "/v1/auth/web"
    static let plainName = "myday_refresh"
    static let hostName = "__Host-myday_refresh"

    /// Whether clients reach the server over HTTPS (`MYDAY_PUBLIC_URL`), where the cookie is `Secure` and host-only.
    let secure: Bool

    /// The cookie of the request being answered.
    static var current: RefreshCookie { RefreshCookie(secure: RequestOrigin.current.hasPrefix("https://")) }

    var name: String { secure ? Self.hostName : Self.plainName }

    /// The header that stores `value` for `maxAge` seconds.
    func set(_ value: String, maxAge: Int) -> HTTPFields {
        [.setCookie: cookie(name, value: value, path: secure ? "/" : Self.webSessionPath, maxAge: maxAge)]
    }

    /// The headers that remove it; over HTTPS also the plain cookie an earlier version of the server set there.
    var cleared: HTTPFields {
        var fields = set("", maxAge: 0)
        if secure { fields[values: .setCookie].append(cookie(Self.plainName, value: "", path: Self.webSessionPath, maxAge: 0)) }
        return fields
    }

    /// The values of every cookie of this name the request carries, in order, at most four. Over HTTPS a cookie of the
    /// plain name is never read: anyone on a neighbouring subdomain could have set it.
    func values(in request: Request) -> [String] {
        var found: [String] = []
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    let value = String(parts[1]).trimmingCharacters(in: .whitespaces)
                    if !value.isEmpty, !found.contains(value) { found.append(value) }
                }
            }
        }
        return Array(found.prefix(4))
    }

    private func cookie(_ name: String, value: String, path: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}
