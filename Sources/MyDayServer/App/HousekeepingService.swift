import Foundation
import Logging
import MyDayMail
import ServiceLifecycle

/// Removes what nobody may keep any longer, once an interval, in every process that runs jobs: export archives whose
/// link expired or was ended (the export stays listed, `expired`), entries whose upload never came (a retry of the
/// entry brings it back), entries whose time in Recently deleted ended, blob folders of accounts that are gone, and
/// mail files in the outbox older than the links they carry. Each round is idempotent, so processes running it side by side do no harm.
struct HousekeepingService: Service {
    let entries: EntryStore
    let exports: ExportStore
    let blobs: any BlobStore
    let users: UserStore
    /// The outbox folder of `OutboxMailer`, pruned of mail older than `mailLifetime`; nil when mail goes elsewhere.
    let outbox: URL?
    /// How long a mailed link lives (the longest: an export's), after which its mail file is of no use.
    let mailLifetime: Duration
    var interval: Duration = .seconds(3600)
    let logger: Logger

    /// An entry whose upload has not come this long after its upload URL expired is abandoned: an upload that started
    /// just before the expiry may still be streaming until then.
    static let uploadGrace: TimeInterval = 3600
    /// A blob write (an archive's multipart upload, say) unfinished this long after it began was abandoned.
    static let abandonedWriteAge: TimeInterval = 24 * 3600

    func run() async throws {
        await runRounds(every: interval, name: "housekeeping", logger: logger) { try await round() }
    }

    /// One round of everything.
    func round(now: Date = Date()) async throws {
        try await deleteExpiredArchives(now: now)
        try await sweepAbandonedUploads(now: now)
        try await eraseExpiredDeletions(now: now)
        try await sweepStrayUploads()
        try await deleteFoldersOfGoneAccounts()
        let unfinished = try await blobs.removeAbandonedWrites(startedBefore: now.addingTimeInterval(-Self.abandonedWriteAge))
        if unfinished > 0 { logger.info("unfinished blob writes removed", metadata: ["count": "\(unfinished)"]) }
        try await pruneOutbox(now: now)
    }

    /// Removes the archives of exports whose links expired (or were ended) before `now`, of one user or all; answers how
    /// many.
    @discardableResult
    func deleteExpiredArchives(now: Date = Date(), userID: UUID? = nil) async throws -> Int {
        let expired = try await exports.expiredArchives(now: now, userID: userID)
        for export in expired {
            if let key = export.blobKey { try await blobs.delete(key: key) }
            try await exports.markArchiveDeleted(id: export.id)
        }
        if !expired.isEmpty { logger.info("expired export archives deleted", metadata: ["count": "\(expired.count)"]) }
        return expired.count
    }

    /// Removes entries left in `pending_upload` after their upload URL expired, with whatever bytes arrived; answers
    /// how many.
    @discardableResult
    func sweepAbandonedUploads(now: Date = Date()) async throws -> Int {
        var count = 0
        while true {
            let incoming = try await entries.sweepAbandonedUploads(deadline: now.addingTimeInterval(-Self.uploadGrace))
            for key in incoming { try await blobs.delete(key: key) }
            count += incoming.count
            if incoming.count < 100 { break }
        }
        if count > 0 { logger.info("abandoned uploads removed", metadata: ["count": "\(count)"]) }
        return count
    }

    /// Deletes for good the entries whose 30 days in Recently deleted ended before `now`, with their audio; answers how many.
    @discardableResult
    func eraseExpiredDeletions(now: Date = Date()) async throws -> Int {
        var count = 0
        while true {
            let round = try await entries.eraseExpired(now: now)
            for key in round.audioKeys { try await blobs.deleteAudio(key: key) }
            count += round.erased
            if round.erased < 100 { break }
        }
        if count > 0 { logger.info("entries deleted 30 days ago erased", metadata: ["count": "\(count)"]) }
        return count
    }

    /// Removes uploads that arrived after their entry stopped waiting for one (it was completed or deleted): a client
    /// may PUT again with a URL that has not expired, and such bytes belong to nothing. Answers how many.
    @discardableResult
    func sweepStrayUploads() async throws -> Int {
        var count = 0
        for key in try await blobs.keys(under: "incoming") {
            let audioKey = "audio/" + key.dropFirst("incoming/".count)
            guard try await entries.entry(audioKey: audioKey)?.status != .pendingUpload else { continue }
            try await blobs.delete(key: key)
            count += 1
        }
        if count > 0 { logger.info("stray uploads removed", metadata: ["count": "\(count)"]) }
        return count
    }

    /// Removes the blob folders (`audio/<user>`, `incoming/<user>`, `exports/<user>`) of users the database no longer
    /// has: what a build or an upload finished after its account was deleted. Answers how many.
    @discardableResult
    func deleteFoldersOfGoneAccounts() async throws -> Int {
        var count = 0
        for area in BlobKey.userAreas {
            for folder in try await blobs.folders(under: area) {
                guard let userID = UUID(uuidString: folder), folder == userID.lowercased,
                    try await users.exists(id: userID) == false
                else { continue }
                try await blobs.deleteAll(under: "\(area)/\(folder)")
                count += 1
            }
        }
        if count > 0 { logger.info("blob folders of deleted accounts removed", metadata: ["count": "\(count)"]) }
        return count
    }

    /// Deletes outbox mail files older than `mailLifetime`; answers how many.
    @discardableResult
    func pruneOutbox(now: Date = Date()) async throws -> Int {
        guard let outbox else { return 0 }
        let removed = try await FileManager.removeStaleFiles(
            in: outbox, endingWith: ".eml", olderThan: mailLifetime.seconds, now: now)
        if removed > 0 { logger.info("old mail removed from the outbox", metadata: ["count": "\(removed)"]) }
        return removed
    }
}
