import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// What the server needs to speak to Apple's token endpoints for the team: its id, the key's id and the key (`.p8`).
package struct AppleTeamKey: Sendable {
    package let teamID: String
    package let keyID: String
    package let privateKeyPEM: String

    package init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }
}

/// Apple's `/auth/token` and `/auth/revoke` for one team: exchanges the authorization code of a sign-in for a refresh
/// token, and revokes that token, which ends the app's authorization in the person's Apple ID settings
/// (developer.apple.com/documentation/sign_in_with_apple/generate-and-validate-tokens and …/revoke-tokens).
struct AppleAccountTokens: Sendable {
    let key: AppleTeamKey
    /// `https://appleid.apple.com/auth` unless told otherwise; `/token` and `/revoke` are below it.
    let baseURL: String
    var httpClient: HTTPClient = .shared
    var timeout: TimeAmount = .seconds(15)

    /// Why Apple's answer was not a token: `rejected` when Apple refused the request (its OAuth `error`), else
    /// `unavailable` (no answer, a server error, an answer that is not Apple's).
    enum Failure: Error, CustomStringConvertible {
        case rejected(status: Int, error: String)
        case unavailable(String)

        var description: String {
            switch self {
            case .rejected(let status, let error): "Apple refused the request (\(status) \(error))"
            case .unavailable(let reason): "Apple could not be reached: \(reason)"
            }
        }
    }

    /// The refresh token for `code`; `redirectURI` is the one the sign-in named (web sign-ins only).
    func exchange(code: String, clientID: String, redirectURI: String?) async throws -> String {
        var form = [
            ("client_id", clientID), ("client_secret", try await clientSecret(for: clientID)), ("code", code),
            ("grant_type", "authorization_code"),
        ]
        if let redirectURI { form.append(("redirect_uri", redirectURI)) }
        let (status, body) = try await post("token", form: form)
        guard status == 200 else { throw Self.failure(status: status, body: body) }
        struct Answer: Decodable {
            let refreshToken: String?
            enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
        }
        guard let token = (try? JSONDecoder().decode(Answer.self, from: body))?.refreshToken, !token.isEmpty else {
            throw Failure.unavailable("the token answer holds no refresh_token")
        }
        return token
    }

    /// Revokes a refresh token; Apple answers 200 for a token it no longer knows, too (RFC 7009).
    func revoke(refreshToken: String, clientID: String) async throws {
        let (status, body) = try await post(
            "revoke",
            form: [
                ("client_id", clientID), ("client_secret", try await clientSecret(for: clientID)), ("token", refreshToken),
                ("token_type_hint", "refresh_token"),
            ])
        guard status == 200 else { throw Self.failure(status: status, body: body) }
    }

    /// The client secret Apple asks for: a JWT signed with the team's key (ES256), valid for five minutes.
    func clientSecret(for clientID: String, now: Date = Date()) async throws -> String {
        let keyID = JWKIdentifier(string: key.keyID)
        let signingKey = try ES256PrivateKey(pem: key.privateKeyPEM)
        let issuedAt = Int(now.timeIntervalSince1970)
        let claims = ClientSecretClaims(
            iss: key.teamID, iat: issuedAt, exp: issuedAt + 300, aud: "https://appleid.apple.com", sub: clientID)
        return try await JWTKeyCollection().add(ecdsa: signingKey, kid: keyID).sign(claims, kid: keyID)
    }

    private func post(_ endpoint: String, form: [(String, String)]) async throws -> (status: Int, body: Data) {
        var request = HTTPClientRequest(url: (baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: Self.formEncoded(form)))
        do {
            let response = try await httpClient.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 * 1024)
            return (Int(response.status.code), Data(buffer: body))
        } catch {
            throw Failure.unavailable("\(error)")
        }
    }

    /// A 4xx with Apple's OAuth error is a refusal; anything else (5xx, a proxy's page) is Apple being away.
    private static func failure(status: Int, body: Data) -> Failure {
        struct OAuthError: Decodable { let error: String }
        if (400..<500).contains(status), let answer = try? JSONDecoder().decode(OAuthError.self, from: body) {
            return .rejected(status: status, error: String(answer.error.prefix(64)))
        }
        return .unavailable("answered \(status)")
    }

    static func formEncoded(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    private struct ClientSecretClaims: JWTPayload {
        let iss: String
        let iat: Int
        let exp: Int
        let aud: String
        let sub: String

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

/// The redirect URI of the sign-in being handled, which Apple wants back with a web sign-in's code; the web routes set
/// it to the page's origin, where Apple's script was told to return.
enum AppleSignInRedirect {
    @TaskLocal static var current: String?
}
