import CryptoExtras
import Foundation
import Hummingbird
import JWTKit
import OpenAIStandIns
import Synchronization

@testable import MyDayServer

/// Apple's and Google's key endpoints on loopback: JWKS documents of keys made in the test, served
/// as the providers serve them (JSON, `Cache-Control: max-age`), plus tokens signed with those keys.
final class IdentityProviderStandIn: Sendable {
    static let appleClientID = "app.myday.ios"
    static let googleClientID = "1234-myday.apps.googleusercontent.com"

    /// RSA keys sign Apple's tokens, as Apple's do; an EC key signs Google's, to cover both kinds.
    static let appleKey = try! JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    static let rotatedAppleKey = try! JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    static let strangerKey = try! JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    static let googleKey = ES256PrivateKey()

    /// Which Apple keys the endpoint publishes: the rotated key joins when a test rotates.
    let appleRotated = Mutex(false)
    let fetches = Mutex<[String: Int]>([:])
    /// Apple's token and revocation endpoints, beside its keys.
    let appleTokens = AppleTokenEndpoints()

    /// Runs the stand-in and hands `body` the configuration changes that point a server at it.
    func serve(
        _ body: @escaping @Sendable (_ configure: @escaping @Sendable (inout ServerConfiguration) -> Void) async throws -> Void
    )
        async throws
    {
        let router = Router()
        router.get("/apple/auth/keys") { _, _ in try self.keys(provider: "apple") }
        router.get("/google/oauth2/v3/certs") { _, _ in try self.keys(provider: "google") }
        appleTokens.register(on: router)
        try await LoopbackApp.run(router) { port in
            try await body { configuration in
                configuration.appleClientIDs = [Self.appleClientID, "app.myday.web"]
                configuration.googleClientIDs = [Self.googleClientID]
                configuration.appleKeysURL = "http://127.0.0.1:\(port)/apple/auth/keys"
                configuration.googleKeysURL = "http://127.0.0.1:\(port)/google/oauth2/v3/certs"
                configuration.appleAuthURL = "http://127.0.0.1:\(port)/apple/auth"
                configuration.appleTeamKey = AppleTeamKey(
                    teamID: AppleTokenEndpoints.teamID, keyID: AppleTokenEndpoints.keyID,
                    privateKeyPEM: AppleTokenEndpoints.teamKey.pemRepresentation)
            }
        }
    }

    private func keys(provider: String) throws -> Response {
        fetches.withLock { $0[provider, default: 0] += 1 }
        var keys: [String] = []
        if provider == "apple" {
            keys.append(try Self.jwk(Self.appleKey, kid: "apple-1"))
            if appleRotated.withLock({ $0 }) { keys.append(try Self.jwk(Self.rotatedAppleKey, kid: "apple-2")) }
        } else {
            let point = Self.googleKey.publicKey.parameters!
            keys.append(
                #"{"kty":"EC","kid":"google-1","alg":"ES256","use":"sig","crv":"P-256","x":"\#(point.x)","y":"\#(point.y)"}"#)
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"keys":[\#(keys.joined(separator: ","))]}"#)))
    }

    private static func jwk(_ key: JWTKit.Insecure.RSA.PrivateKey, kid: String) throws -> String {
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        return
            #"{"kty":"RSA","kid":"\#(kid)","alg":"RS256","use":"sig","n":"\#(modulus.base64URLEncodedString())","e":"\#(exponent.base64URLEncodedString())"}"#
    }

    // MARK: Tokens

    /// The claims of a token as a provider makes it; tests change one field to make it wrong.
    struct Claims: JWTPayload {
        var iss: String
        var aud: String
        var sub: String
        var iat: Int
        var exp: Int
        var email: String?
        var emailVerified: String?
        var isPrivateEmail: String?
        var nonce: String?

        enum CodingKeys: String, CodingKey {
            case iss, aud, sub, iat, exp, email, nonce
            case emailVerified = "email_verified"
            case isPrivateEmail = "is_private_email"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The raw nonce `appleClaims` hashes into a token unless told another; send it beside the token.
    static let appleNonce = "apple-nonce-of-the-test"

    static func appleClaims(
        sub: String = "001234.apple-\(UUID().uuidString.prefix(8))", email: String? = nil, nonce: String = appleNonce
    )
        -> Claims
    {
        let now = Int(Date().timeIntervalSince1970)
        return Claims(
            iss: "https://appleid.apple.com", aud: appleClientID, sub: sub, iat: now, exp: now + 600,
            email: email ?? "\(UUID().uuidString.prefix(10).lowercased())@privaterelay.appleid.com", emailVerified: "true",
            isPrivateEmail: "true", nonce: sha256Hex(nonce))
    }

    static func googleClaims(sub: String = "10\(Int.random(in: 100_000_000...999_999_999))", email: String? = nil) -> Claims {
        let now = Int(Date().timeIntervalSince1970)
        return Claims(
            iss: "https://accounts.google.com", aud: googleClientID, sub: sub, iat: now, exp: now + 3600,
            email: email ?? "person\(Int.random(in: 1000...9999))@gmail.com", emailVerified: "true")
    }

    static func appleToken(_ claims: Claims, key: JWTKit.Insecure.RSA.PrivateKey = appleKey, kid: String = "apple-1") async throws
        -> String
    {
        let keyID = JWKIdentifier(string: kid)
        return try await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256, kid: keyID).sign(claims, kid: keyID)
    }

    static func googleToken(_ claims: Claims) async throws -> String {
        try await JWTKeyCollection().add(ecdsa: googleKey, kid: "google-1").sign(claims, kid: "google-1")
    }

    /// A token with a header and signature of the caller's choosing, for forgeries.
    static func forged(header: String, claims: Claims, signature: (Data) -> Data) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let signingInput =
            Data(header.utf8).base64URLEncodedString() + "." + (try encoder.encode(claims)).base64URLEncodedString()
        return signingInput + "." + signature(Data(signingInput.utf8)).base64URLEncodedString()
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
