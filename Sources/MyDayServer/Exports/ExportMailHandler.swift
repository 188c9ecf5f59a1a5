import Foundation
import Logging
import MyDayMail
import MyDayModels
import SQLKit

/// Runs `mail_export` jobs: sends the ready export's signed link to the account's verified address, as a link on the
/// configured public URL (never on a `Host` a request named). The mail names the days and the link, nothing of the
/// diary's content.
struct ExportMailHandler: JobHandler {
    static let kind = "mail_export"
    var kind: String { Self.kind }

    let exports: ExportStore
    let users: UserStore
    let links: BlobLinks
    let mailer: any Mailer
    /// `MYDAY_PUBLIC_URL`; without it nothing is mailed and the app shows the link.
    let publicURL: String?
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let id = try ExportJob.decode(job.payload).exportID
        guard let userID = job.userID, let export = try await exports.export(id: id, userID: userID),
            export.isDownloadable(), let key = export.blobKey, let expires = export.linkExpiresAt,
            let address = export.email, let user = try await users.user(id: userID), user.email == address,
            user.emailVerified
        else { return { _ in } }
        guard let origin = PublicURL.origin(publicURL) else {
            logger.notice("export not mailed: MYDAY_PUBLIC_URL is not set", metadata: ["export": "\(id.lowercased)"])
            return { _ in }
        }
        let link = RequestOrigin.$current.withValue(origin) { links.exportDownload(key: key, expires: expires) }
        let body = """
            Your My Day export is ready: the days from \(export.from) to \(export.to) (\(export.timeZone)), \
            \(counted(export.entryCount ?? 0, "entry", "entries")).

            Download it here until \(expires.formatted(Date.ISO8601FormatStyle())):
            \(link.url)

            Anyone with this link can download the archive, so keep it to yourself. It stops working if you sign out \
            everywhere, change your password or delete the export.
            """
        try await mailer.send(MailMessage(to: address, subject: "Your My Day export is ready", body: body))
        logger.info("export mail sent", metadata: ["export": "\(id.lowercased)"])
        return { _ in }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.error("export mail gave up", metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }
}
