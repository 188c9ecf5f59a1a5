import Crypto
import Foundation
import JWTKit
import Synchronization

/// Short-lived access tokens: HS256 JWTs naming the user, the user's token version, and when they signed in.
struct AccessTokens: Sendable {
    static let issuer = "myday"
    private let keys: JWTKeyCollection
    let lifetime: Duration
    /// Tokens already verified, until they expire: a client sends the same token for up to 15 minutes, and decoding
    /// and checking it again cost a fourteenth of a listing. The user's token version is still checked each time.
    private let verified = VerifiedTokens()

    init(secret: [UInt8], lifetime: Duration) async {
        let key = SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(for: Data("myday access tokens".utf8), using: SymmetricKey(data: secret)))
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(key: key), digestAlgorithm: .sha256)
        self.lifetime = lifetime
    }

    struct Claims: JWTPayload, Equatable {
        var sub: SubjectClaim
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        /// The user's token version when the token was made; a newer version on the user revokes it.
        var ver: Int
        /// When the person signed in (Unix seconds): refreshing makes new tokens but keeps this, so
        /// operations that need a recent sign-in cannot be reached with a refresh token alone.
        var authTime: Int

        enum CodingKeys: String, CodingKey {
            case sub, iss, iat, exp, ver
            case authTime = "auth_time"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
            guard iss.value == AccessTokens.issuer else {
                throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "wrong issuer")
            }
        }
    }

    func make(for user: UserRecord, signedInAt: Date, now: Date = Date()) async throws -> String {
        // Whole seconds: NumericDate allows fractions, but many JWT libraries expect integers.
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            sub: .init(value: user.id.lowercased), iss: .init(value: Self.issuer), iat: .init(value: now),
            exp: .init(value: now.addingTimeInterval(lifetime.seconds)), ver: user.tokenVersion,
            authTime: Int(signedInAt.timeIntervalSince1970.rounded(.down)))
        return try await keys.sign(claims)
    }

    /// The claims of a genuine, unexpired token; nil for anything else.
    func verify(_ token: String, now: Date = Date()) async -> Claims? {
        if let claims = verified.claims(of: token, at: now) { return claims }
        guard let claims = try? await keys.verify(token, as: Claims.self), claims.exp.value > now else { return nil }
        verified.keep(claims, of: token)
        return claims
    }
}

/// The claims of tokens that passed verification, kept until they expire; at most `capacity`, then it starts over.
final class VerifiedTokens: Sendable {
    static let capacity = 10_000
    private let tokens = Mutex<[String: AccessTokens.Claims]>([:])

    func claims(of token: String, at now: Date) -> AccessTokens.Claims? {
        tokens.withLock { tokens in
            guard let claims = tokens[token] else { return nil }
            guard claims.exp.value > now else {
                tokens[token] = nil
                return nil
            }
            return claims
        }
    }

    func keep(_ claims: AccessTokens.Claims, of token: String) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity { tokens.removeAll(keepingCapacity: true) }
            tokens[token] = claims
        }
    }
}
