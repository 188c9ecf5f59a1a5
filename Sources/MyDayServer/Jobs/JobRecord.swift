import Foundation
import SQLKit

/// One unit of background work as the `jobs` table keeps it.
struct JobRecord: Sendable, Equatable {
    enum State: String, Sendable {
        case queued
        case running
        case succeeded
        /// Gave up after `maxAttempts`; `lastError` says why.
        case dead
    }

    let id: UUID
    let kind: String
    /// JSON the handler of `kind` understands.
    let payload: String
    /// The user whose data the job works on, if any.
    let userID: UUID?
    var state: State
    /// Attempts started so far, this one included while running.
    var attempts: Int
    let maxAttempts: Int
    var runAt: Date
    var leaseUntil: Date?
    var lastError: String?

    static let columns = "id, kind, payload, user_id, state, attempts, max_attempts, run_at, lease_until, last_error"

    init(row: any SQLRow) throws {
        id = try row.decodeUUID(column: "id")
        kind = try row.decode(column: "kind", as: String.self)
        payload = try row.decode(column: "payload", as: String.self)
        userID = try row.decodeOptional(column: "user_id", as: String.self).flatMap(UUID.init(uuidString:))
        state = try row.decodeRawValue(column: "state")
        attempts = try row.decode(column: "attempts", as: Int.self)
        maxAttempts = try row.decode(column: "max_attempts", as: Int.self)
        runAt = StoredTime.date(milliseconds: try row.decode(column: "run_at", as: Int.self))
        leaseUntil = try row.decodeOptional(column: "lease_until", as: Int.self).map(StoredTime.date(milliseconds:))
        lastError = try row.decodeOptional(column: "last_error", as: String.self)
    }
}
