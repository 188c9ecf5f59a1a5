import Crypto
import Foundation
import JWTKit

/// The providers one can sign in with besides email and password.
enum SignInProvider: String, Sendable, CaseIterable {
    case apple, google

    var displayName: String {
        switch self {
        case .apple: "Apple"
        case .google: "Google"
        }
    }
}

/// A provider token that passed every check.
struct VerifiedIdentity: Sendable, Equatable {
    let provider: SignInProvider
    let subject: String
    /// The client id the token was issued to (the app's bundle id, or the web's services id).
    let audience: String
    let email: String?
    let emailVerified: Bool
    /// When the provider issued the token (its sign-in), for operations that need a recent one.
    let issuedAt: Date

    /// The email, if the provider vouches for it.
    var verifiedEmail: String? { emailVerified ? email.map(Validation.normalizedEmail) : nil }
}

/// Why a provider token was refused; for the log, never for the client.
struct IdentityTokenError: Error, CustomStringConvertible {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}

/// Verifies Sign in with Apple identity tokens and Google ID tokens: signature by a key of the
/// provider's key set (asymmetric algorithms only, the key named by `kid`), issuer, audience,
/// expiry, and for Apple the nonce.
struct IdentityTokenVerifier: Sendable {
    let provider: SignInProvider
    let issuers: Set<String>
    let audiences: Set<String>
    let keySet: ProviderKeySet
    /// Whether the token carries the SHA-256 of the client's raw nonce (Apple) or the nonce itself (Google).
    var hashesNonce: Bool
    /// Whether a token without a nonce is refused: Apple's always carry one when the app asked, and every app of ours
    /// asks, so a token without one was not made for this sign-in (a replayed or borrowed token).
    var requiresNonce: Bool
    /// Clock difference tolerated on `exp`.
    var leeway: TimeInterval = 60

    /// Signature algorithms accepted; `none` and HMAC never are, whatever a token's header says.
    static let allowedAlgorithms: Set<String> = ["RS256", "ES256"]

    static func apple(clientIDs: [String], keySet: ProviderKeySet) -> IdentityTokenVerifier {
        .init(
            provider: .apple, issuers: ["https://appleid.apple.com"], audiences: Set(clientIDs), keySet: keySet,
            hashesNonce: true, requiresNonce: true)
    }

    static func google(clientIDs: [String], keySet: ProviderKeySet) -> IdentityTokenVerifier {
        .init(
            provider: .google, issuers: ["accounts.google.com", "https://accounts.google.com"], audiences: Set(clientIDs),
            keySet: keySet, hashesNonce: false, requiresNonce: false)
    }

    func verify(_ token: String, nonce: String?, now: Date = Date()) async throws -> VerifiedIdentity {
        guard !audiences.isEmpty else { throw IdentityTokenError("no client ids are configured for \(provider.rawValue)") }
        let header = try Self.header(of: token)
        guard let algorithm = header.alg, Self.allowedAlgorithms.contains(algorithm) else {
            throw IdentityTokenError("algorithm '\(header.alg ?? "")' is not allowed")
        }
        guard let keyID = header.kid, !keyID.isEmpty else { throw IdentityTokenError("the token names no key") }
        let keys = try await keySet.keys(containing: keyID)
        let claims: ProviderTokenClaims
        do {
            claims = try await keys.verify(token, as: ProviderTokenClaims.self)
        } catch {
            throw IdentityTokenError("signature or claims rejected: \(error)")
        }
        guard issuers.contains(claims.iss) else { throw IdentityTokenError("wrong issuer '\(claims.iss.prefix(100))'") }
        guard let audience = claims.aud.value.first(where: audiences.contains) else {
            throw IdentityTokenError("wrong audience")
        }
        guard claims.exp.value.addingTimeInterval(leeway) > now else { throw IdentityTokenError("expired") }
        guard !claims.sub.isEmpty, claims.sub.count <= 255 else { throw IdentityTokenError("no usable subject") }
        try checkNonce(claims.nonce, raw: nonce)
        return VerifiedIdentity(
            provider: provider, subject: claims.sub, audience: audience, email: claims.email,
            emailVerified: claims.emailVerified?.value ?? (provider == .apple && claims.email != nil),
            issuedAt: claims.iat.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? .distantPast)
    }

    /// The client sends the raw nonce; Apple's token holds its SHA-256 (hex), Google's the nonce itself.
    private func checkNonce(_ inToken: String?, raw: String?) throws {
        switch (inToken, raw) {
        case (nil, nil):
            if requiresNonce { throw IdentityTokenError("the token has no nonce; \(provider.rawValue) sign-in needs one") }
        case (let expected?, let raw?):
            let sent = hashesNonce ? SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined() : raw
            guard expected.lowercased() == sent.lowercased() else { throw IdentityTokenError("wrong nonce") }
        case (nil, _?): throw IdentityTokenError("a nonce was sent but the token has none")
        case (_?, nil): throw IdentityTokenError("the token has a nonce but none was sent")
        }
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
    }

    private static func header(of token: String) throws -> Header {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: data)
        else { throw IdentityTokenError("not a signed JWT") }
        return header
    }
}

/// The claims of an Apple or Google ID token this server reads.
struct ProviderTokenClaims: JWTPayload {
    let iss: String
    let aud: AudienceClaim
    let sub: String
    let exp: ExpirationClaim
    let iat: Int?
    let nonce: String?
    let email: String?
    let emailVerified: LenientBool?

    enum CodingKeys: String, CodingKey {
        case iss, aud, sub, exp, iat, nonce, email
        case emailVerified = "email_verified"
    }

    /// Checked by `IdentityTokenVerifier`, which knows the provider and the time.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A boolean claim that providers send as `true` or as `"true"`.
struct LenientBool: Codable, Sendable {
    let value: Bool

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            value = bool
        } else {
            value = try container.decode(String.self).lowercased() == "true"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// The two verifiers a server has, one per provider.
struct IdentityVerifiers: Sendable {
    let apple: IdentityTokenVerifier
    let google: IdentityTokenVerifier

    func verifier(for provider: SignInProvider) -> IdentityTokenVerifier {
        switch provider {
        case .apple: apple
        case .google: google
        }
    }
}
