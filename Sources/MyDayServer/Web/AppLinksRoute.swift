import Foundation
import Hummingbird

/// What Apple's app-site association says of this server: the iPhone apps that open its mailed links (confirm an
/// address, set a new password) themselves when installed; a reminder's stop link stays the web app's.
enum AppLinks {
    /// The pages of the web app whose links the app opens (it reads these: `MailedLink.request`), by the fragment.
    static let pages = ["verify", "reset"]

    /// `TEAMID.bundle.id`: a ten-character team id, a dot, a reverse-DNS bundle id.
    static func isAppID(_ text: String) -> Bool {
        text.wholeMatch(of: /[A-Z0-9]{10}\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+/) != nil
    }

    /// Apple's format: each app, and the URL components it opens (`#` matches the fragment); nil without an app.
    static func document(_ appIDs: [String]) -> Data? {
        guard !appIDs.isEmpty else { return nil }
        let components = pages.map { ["/": "/", "#": "/\($0)/*"] }
        let body: [String: Any] = ["applinks": ["details": [["appIDs": appIDs, "components": components]]]]
        return try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

/// `/.well-known/apple-app-site-association`, or 404 when no app is configured (`MYDAY_IOS_APP_IDS`).
struct AppLinksRoute<Context: RequestContext>: Sendable {
    let appIDs: [String]

    func register(on router: Router<Context>) {
        let document = AppLinks.document(appIDs)
        router.get("/.well-known/apple-app-site-association") { _, _ in
            guard let document else { throw APIError.notFound }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: document)))
        }
    }
}
