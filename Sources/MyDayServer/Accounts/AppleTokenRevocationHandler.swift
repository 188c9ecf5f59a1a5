import Foundation
import Logging
import SQLKit

/// Runs `revoke_apple_token` jobs: revokes at Apple the refresh token kept for an identity that was unlinked or
/// whose account was closed, so the person's Apple ID no longer lists My Day. Apple being away is retried with
/// backoff for about a day; the account's deletion never waits for it.
struct AppleTokenRevocationHandler: JobHandler {
    static let kind = "revoke_apple_token"
    /// With the queue's backoff (at most ten minutes apart), about a day of attempts.
    static let attempts = 150
    var kind: String { Self.kind }

    /// Nil when the server has no team key configured: the job fails at once, saying so.
    let apple: AppleAccountTokens?
    let sealer: SecretSealer
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let payload = try AppleTokenRevocationJob.decode(job.payload)
        guard let apple else {
            throw JobFailure.permanent("no Apple team key is configured (MYDAY_APPLE_TEAM_ID, _KEY_ID, _PRIVATE_KEY)")
        }
        let token: String
        do {
            token = try sealer.open(payload.sealedToken)
        } catch {
            throw JobFailure.permanent("the kept token cannot be opened: \(error)")
        }
        do {
            try await apple.revoke(refreshToken: token, clientID: payload.clientID)
            logger.info("Apple token revoked", metadata: ["job": "\(job.id.lowercased)"])
        } catch AppleAccountTokens.Failure.rejected(_, let error) where error == "invalid_grant" {
            // The token is no longer valid (the person revoked it in their Apple ID settings): nothing is left to do.
            logger.info("Apple token was no longer valid", metadata: ["job": "\(job.id.lowercased)"])
        }
        return { _ in }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.error(
            "Apple token revocation gave up; the person can remove My Day in their Apple ID settings",
            metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }
}

/// The payload of a `revoke_apple_token` job: the token as it was kept (sealed) and the client it was issued to.
struct AppleTokenRevocationJob: JobPayload {
    let sealedToken: String
    let clientID: String

    enum CodingKeys: String, CodingKey {
        case sealedToken = "sealed_token"
        case clientID = "client_id"
    }
}
