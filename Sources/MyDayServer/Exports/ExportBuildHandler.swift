import Foundation
import Logging
import NIOPosix
import SQLKit

/// Runs `build_export` jobs: writes the archive in the scratch folder, moves it into the blob store
/// whole, and in the transaction that finishes the job marks the export ready and queues its mail.
/// An interrupted build starts again from nothing; no half-written archive is ever stored.
struct ExportBuildHandler: JobHandler {
    static let kind = "build_export"
    var kind: String { Self.kind }

    let exports: ExportStore
    /// For each day's entries and words again, to write its digest.
    let entries: EntryStore
    /// The person's vocabulary, which a JSON export holds.
    let vocabulary: VocabularyStore
    let blobs: any BlobStore
    /// Where archives are written while they grow.
    let scratch: URL
    /// How long the download link, and the archive, last.
    let linkLifetime: Duration
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let id = try ExportJob.decode(job.payload).exportID
        guard let export = try await exports.startBuilding(id: id) else { return { _ in } }
        guard let zone = TimeZone(identifier: export.timeZone),
            let range = ExportRecord.interval(from: export.from, to: export.to, timeZone: zone)
        else { throw JobFailure.permanent("the export's range cannot be read") }

        let file = scratch.appendingPathComponent("export-\(id.lowercased).zip.part")
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try ExportArchiveWriter(url: file, formats: export.formats)
        var after: (createdAt: Int, id: String)?
        while true {
            let page = try await exports.entries(
                userID: export.userID, start: range.start, end: range.end, after: after, limit: 100)
            for exported in page {
                let entry = exported.entry
                if entry.kind == .audio, entry.status != .pendingUpload, let key = entry.audioKey {
                    try await blobs.withLocalFile(key: key) { audio in
                        try await NIOThreadPool.singleton.runIfActive { try writer.add(exported, audio: audio) }
                    }
                } else {
                    try await NIOThreadPool.singleton.runIfActive { try writer.add(exported, audio: nil) }
                }
            }
            guard page.count == 100, let last = page.last?.entry else { break }
            // Deleted, stopped by a sign-out everywhere, or its account closed: nothing more is gathered.
            guard try await exports.isBuilding(id: id) else {
                logger.info("export stopped while being built", metadata: ["export": "\(id.lowercased)"])
                return { _ in }
            }
            after = (StoredTime.milliseconds(last.createdAt), last.id.lowercased)
        }
        // Each day's markdown: its digest from the day's entries in the archive (a day may reach past the range's ends).
        for day in writer.days.keys.sorted() {
            let found = try await entries.day(day, userID: export.userID)
            let digest = DayDigest.sentences(of: DayDigest.sources(found.filter { entry, _ in writer.holds(entry.id, on: day) }))
            try await NIOThreadPool.singleton.runIfActive {
                try writer.addDay(day, entries: found.map(\.entry), digest: digest)
            }
        }
        let header = """
            My Day export
            Days: \(export.from) to \(export.to), both included, in the time zone \(export.timeZone).
            Made: \(Date().formatted(Date.ISO8601FormatStyle()))

            """
        let days = export.from == export.to ? "\(export.from)" : "\(export.from) to \(export.to)"
        let exported = "Exported \(days), in the time zone \(export.timeZone)"
        let words = try await vocabulary.words(userID: export.userID)
        try await NIOThreadPool.singleton.runIfActive {
            try writer.finish(readmeHeader: header, range: exported, vocabulary: words)
        }
        let counts = writer.counts
        let key = BlobKey.export(userID: export.userID, exportID: id)
        let size = try await blobs.store(fileAt: file, key: key)
        let expires = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + linkLifetime.seconds).rounded(.down))
        logger.info(
            "export built",
            metadata: ["export": "\(id.lowercased)", "entries": "\(counts.entries)", "bytes": "\(size)"])
        return { [blobs, logger] db in
            guard
                try await ExportStore.markReady(
                    id: id, counts: counts, sizeBytes: size, blobKey: key, linkExpiresAt: expires, in: db)
            else {
                try await blobs.delete(key: key)
                logger.info("export stopped while being built; its archive is deleted", metadata: ["export": "\(id.lowercased)"])
                return
            }
            if export.email != nil {
                _ = try await JobQueue.enqueue(
                    kind: ExportMailHandler.kind, payload: ExportJob(exportID: id).json, userID: export.userID, in: db)
            }
        }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        try await ExportStore.markFailed(id: try ExportJob.decode(job.payload).exportID, reason: reason, in: db)
    }
}
