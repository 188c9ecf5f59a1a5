import Foundation
import MyDayAPI

extension APIHandler {
    func createExport(_ input: Operations.CreateExport.Input) async throws -> Operations.CreateExport.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        let zone = try Validation.timeZone(body.tz)
        guard let range = ExportRecord.interval(from: body.from, to: body.to, timeZone: zone) else {
            throw APIError.unprocessable("'from' and 'to' must be real dates such as 2026-05-01.")
        }
        guard range.start < range.end else { throw APIError.unprocessable("'to' must not be before 'from'.") }
        let formats = Array(Set((body.formats ?? []).map(\.rawValue))).sorted()
        try await requireRecentSignIn(
            user, proof: body.reauthentication,
            otherwise: "An export holds the whole diary of its days: send the password, or sign in again first.")
        try await limits.export(user: user.id.lowercased)
        // The link is mailed to the account's own confirmed address only, and only by a server that knows its public URL.
        let mailTo = user.emailVerified && publicURL != nil ? user.email : nil
        let export: ExportRecord
        do {
            export = try await exports.create(
                userID: user.id, from: body.from, to: body.to, range: range, timeZone: zone.identifier, email: mailTo,
                formats: formats, quotaBytes: quotaBytes)
        } catch is ExportStore.AlreadyBuilding {
            throw APIError.conflict("An export is being prepared already; ask for the next one when it is ready.")
        } catch let full as QuotaExceeded {
            throw APIError.quotaExceeded(full)
        }
        logger.info("export queued", metadata: ["user": "\(user.id.lowercased)", "export": "\(export.id.lowercased)"])
        return .accepted(.init(body: .json(schema(export))))
    }

    func listExports(_ input: Operations.ListExports.Input) async throws -> Operations.ListExports.Output {
        let user = try RequestUser.required()
        return .ok(.init(body: .json(.init(exports: try await exports.exports(userID: user.id).map { schema($0) }))))
    }

    func getExport(_ input: Operations.GetExport.Input) async throws -> Operations.GetExport.Output {
        let user = try RequestUser.required()
        guard let export = try await exports.export(id: try Validation.id(input.path.id), userID: user.id) else {
            throw APIError.notFound
        }
        return .ok(.init(body: .json(schema(export))))
    }

    func deleteExport(_ input: Operations.DeleteExport.Input) async throws -> Operations.DeleteExport.Output {
        let user = try RequestUser.required()
        let archive: String?
        do {
            archive = try await exports.delete(id: try Validation.id(input.path.id), userID: user.id)
        } catch is ExportStore.NotFound {
            throw APIError.notFound
        }
        if let archive { try await blobs.delete(key: archive) }
        logger.info("export deleted", metadata: ["user": "\(user.id.lowercased)", "export": "\(input.path.id.lowercased())"])
        return .noContent(.init())
    }

    /// The export as the API shows it; a ready one carries its signed link until it expires.
    func schema(_ export: ExportRecord, now: Date = Date()) -> Components.Schemas.Export {
        let status: Components.Schemas.Export.StatusPayload =
            switch export.status {
            case .queued: .queued
            case .building: .building
            case .failed: .failed
            case .expired: .expired
            case .ready: export.isDownloadable(now: now) ? .ready : .expired
            }
        let link =
            export.isDownloadable(now: now)
            ? export.blobKey.flatMap { key in export.linkExpiresAt.map { links.exportDownload(key: key, expires: $0) } } : nil
        return .init(
            id: export.id.lowercased, from: export.from, to: export.to, tz: export.timeZone,
            formats: export.formats.compactMap(Components.Schemas.ExportFormat.init(rawValue:)), status: status,
            failureReason: export.failureReason, entries: export.entryCount, audioFiles: export.audioCount,
            notTranscribed: export.untranscribedCount, sizeBytes: export.sizeBytes, downloadUrl: link?.url,
            mailedTo: export.email, expiresAt: export.linkExpiresAt, createdAt: export.createdAt)
    }
}
