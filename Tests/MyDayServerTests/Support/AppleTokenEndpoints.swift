import Foundation
import Hummingbird
import JWTKit
import Synchronization

/// Apple's `/auth/token` and `/auth/revoke` on loopback, speaking their protocol: form-encoded requests whose
/// `client_secret` is a JWT signed (ES256) with the team's key, JSON answers, OAuth errors as 400 `{"error": …}`.
/// Codes are made by the test, work once, and belong to one client id (and redirect URI, for web sign-ins).
final class AppleTokenEndpoints: Sendable {
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"
    static let teamKey = ES256PrivateKey()

    /// A code Apple handed to a sign-in.
    struct Code: Sendable {
        let clientID: String
        let redirectURI: String?
    }

    private let codes = Mutex<[String: Code]>([:])
    /// Refresh tokens issued, and those revoked, in order.
    let issued = Mutex<[String]>([])
    let revoked = Mutex<[String]>([])
    /// How many of the next requests to each endpoint answer 503, as Apple does when it is away.
    let tokenOutages = Mutex(0)
    let revokeOutages = Mutex(0)
    /// Requests each endpoint answered, failures included.
    let tokenRequests = Mutex(0)
    let revokeRequests = Mutex(0)

    /// A fresh code, as Apple returns it with an identity token.
    func issueCode(clientID: String = IdentityProviderStandIn.appleClientID, redirectURI: String? = nil) -> String {
        let code =
            "c\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()).0.mrqx.\(Int.random(in: 1000...9999))"
        codes.withLock { $0[code] = Code(clientID: clientID, redirectURI: redirectURI) }
        return code
    }

    func register(on router: Router<BasicRequestContext>) {
        router.post("/apple/auth/token") { request, context in
            self.tokenRequests.withLock { $0 += 1 }
            if Self.takeOutage(self.tokenOutages) { return Self.answer(503, #"{"error":"temporarily_unavailable"}"#) }
            let form = try await Self.form(request, context)
            guard form["grant_type"] == "authorization_code" else { return Self.error("unsupported_grant_type") }
            guard let clientID = form["client_id"], await Self.secretIsValid(form["client_secret"], clientID: clientID)
            else { return Self.error("invalid_client") }
            let code = self.codes.withLock { codes in form["code"].flatMap { codes.removeValue(forKey: $0) } }
            guard let code, code.clientID == clientID, code.redirectURI == form["redirect_uri"] else {
                return Self.error("invalid_grant")
            }
            let refreshToken = "r\(UUID().uuidString.lowercased()).0.nrqx.\(Int.random(in: 1000...9999))"
            self.issued.withLock { $0.append(refreshToken) }
            return Self.answer(
                200,
                #"{"access_token":"a\#(UUID().uuidString)","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(refreshToken)","id_token":"not.checked.here"}"#
            )
        }
        router.post("/apple/auth/revoke") { request, context in
            self.revokeRequests.withLock { $0 += 1 }
            if Self.takeOutage(self.revokeOutages) { return Self.answer(503, "Service Unavailable") }
            let form = try await Self.form(request, context)
            guard let clientID = form["client_id"], await Self.secretIsValid(form["client_secret"], clientID: clientID)
            else { return Self.error("invalid_client") }
            guard let token = form["token"], form["token_type_hint"] == "refresh_token" else {
                return Self.error("invalid_request")
            }
            // Unknown tokens get 200 too (RFC 7009): only the ones this stand-in issued are recorded.
            if self.issued.withLock({ $0.contains(token) }) { self.revoked.withLock { $0.append(token) } }
            return Self.answer(200, "")
        }
    }

    /// A client secret Apple accepts: signed by the team's key named in `kid`, issued by the team, for this client,
    /// for Apple's audience, unexpired and living at most six months.
    private static func secretIsValid(_ secret: String?, clientID: String) async -> Bool {
        guard let secret else { return false }
        struct Claims: JWTPayload {
            let iss: String
            let iat: Int
            let exp: Int
            let aud: String
            let sub: String
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let keys = await JWTKeyCollection().add(ecdsa: teamKey.publicKey, kid: JWKIdentifier(string: keyID))
        guard let claims = try? await keys.verify(secret, as: Claims.self) else { return false }
        let now = Int(Date().timeIntervalSince1970)
        return claims.iss == teamID && claims.sub == clientID && claims.aud == "https://appleid.apple.com"
            && claims.exp > now && claims.iat <= now + 60 && claims.exp - claims.iat <= 15_777_000
    }

    private static func takeOutage(_ outages: borrowing Mutex<Int>) -> Bool {
        outages.withLock { left in
            guard left > 0 else { return false }
            left -= 1
            return true
        }
    }

    private static func form(_ request: Request, _ context: BasicRequestContext) async throws -> [String: String] {
        guard request.headers[.contentType] == "application/x-www-form-urlencoded" else { return [:] }
        let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
        var components = URLComponents()
        components.percentEncodedQuery = body
        return Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    private static func error(_ code: String) -> Response { answer(400, #"{"error":"\#(code)"}"#) }

    private static func answer(_ status: Int, _ body: String) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
