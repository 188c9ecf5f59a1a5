import Foundation
import Logging
import SQLKit

/// Runs `delete_account` jobs: removes every blob of a closed account, then, in the transaction
/// that finishes the job, every row (entries, jobs, tokens, identities, rate-limit counts, the user).
/// Each step is idempotent, so a deletion interrupted anywhere completes when the job runs again.
struct AccountDeletionHandler: JobHandler {
    static let kind = "delete_account"
    var kind: String { Self.kind }

    let users: UserStore
    let blobs: any BlobStore
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let userID = try AccountDeletionJob.decode(job.payload).userID
        guard try await users.isClosedOrGone(userID: userID) else {
            throw JobFailure.permanent("the account is open; only a closed account is deleted")
        }
        for folder in BlobKey.folders(ofUser: userID) {
            try await blobs.deleteAll(under: folder)
        }
        return { [users] db in
            try await Self.deleteRows(of: userID, in: db)
            users.driver.scrubAfterCommit()
            logger.info("account deleted", metadata: ["user": "\(userID.lowercased)"])
        }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.error("account deletion gave up", metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }

    /// Deletes the user's rows, children first; the job's own row goes with the user's other jobs.
    static func deleteRows(of userID: UUID, in db: any SQLDatabase) async throws {
        let user = userID.lowercased
        try await db.raw("DELETE FROM entries WHERE user_id = \(bind: user)").run()
        try await db.raw("DELETE FROM exports WHERE user_id = \(bind: user)").run()
        try await db.raw("DELETE FROM jobs WHERE user_id = \(bind: user)").run()
        try await db.raw("DELETE FROM refresh_tokens WHERE user_id = \(bind: user)").run()
        try await db.raw("DELETE FROM identities WHERE user_id = \(bind: user)").run()
        let keys: [SQLQueryString] = RateLimitGuard.keys(ofUser: user).map { "\(bind: $0)" }
        try await db.raw("DELETE FROM rate_limits WHERE key IN (\(keys.joined(separator: ", ")))").run()
        try await db.raw("DELETE FROM users WHERE id = \(bind: user) AND deleted_at IS NOT NULL").run()
    }
}

/// The payload of a `delete_account` job.
struct AccountDeletionJob: JobPayload {
    let userID: UUID

    enum CodingKeys: String, CodingKey { case userID = "user_id" }
}
