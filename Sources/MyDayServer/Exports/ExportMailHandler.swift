import Foundation
import Logging
import SQLKit

/// Runs `mail_export` jobs: sends the ready export's signed link to the address it was asked for,
/// or the account's. The mail names the days and the link, nothing of the diary's content.
struct ExportMailHandler: JobHandler {
    static let kind = "mail_export"
    var kind: String { Self.kind }

    let exports: ExportStore
    let users: UserStore
    let links: BlobLinks
    let mailer: any Mailer
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let id = try ExportJob.decode(job.payload).exportID
        guard let userID = job.userID, let export = try await exports.export(id: id, userID: userID),
            export.isDownloadable(), let key = export.blobKey, let expires = export.linkExpiresAt,
            let user = try await users.user(id: userID)
        else { return { _ in } }
        let link = RequestOrigin.$current.withValue(export.origin) { links.download(key: key, expires: expires) }
        let body = """
            Your My Day export is ready: the days from \(export.from) to \(export.to) (\(export.timeZone)), \
            \(export.entryCount ?? 0) entries.

            Download it here until \(expires.formatted(Date.ISO8601FormatStyle())):
            \(link.url)

            Anyone with this link can download the archive, so keep it to yourself.
            """
        try await mailer.send(MailMessage(to: export.email ?? user.email, subject: "Your My Day export is ready", body: body))
        logger.info("export mail sent", metadata: ["export": "\(id.lowercased)"])
        return { _ in }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.error("export mail gave up", metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }
}
