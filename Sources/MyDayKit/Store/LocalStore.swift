import Foundation
import GRDB

/// The device's own database: entries, the upload queue and the sync cursor. Owns the migrations;
/// every write is named by what happened (`recordFinished`, `markUploaded`, `applyServerChanges`…).
public final class LocalStore: Sendable {
    let writer: any DatabaseWriter

    /// A store in a file (created if missing), migrated to the newest schema.
    public convenience init(path: String) throws {
        try self.init(writer: DatabasePool(path: path, configuration: Self.configuration))
    }

    /// A store in memory, for tests and previews.
    public static func inMemory() throws -> LocalStore {
        try LocalStore(writer: DatabaseQueue(configuration: configuration))
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        return configuration
    }

    init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: entries, upload queue, sync cursor") { db in
            try db.create(table: "entry") { t in
                t.primaryKey("id", .blob)
                t.column("createdAt", .datetime).notNull().indexed()
                t.column("timeZone", .text).notNull()
                t.column("duration", .double).notNull()
                t.column("kind", .text).notNull()
                t.column("state", .text).notNull()
                t.column("failureReason", .text)
                t.column("filename", .text).notNull()
                t.column("contentType", .text)
                t.column("sizeBytes", .integer)
                t.column("language", .text)
                t.column("title", .text)
                t.column("tags", .jsonText).notNull()
                t.column("mood", .integer)
                t.column("transcriptRaw", .text)
                t.column("transcriptClean", .text)
                t.column("noSpeech", .boolean).notNull()
                t.column("serverUpdatedAt", .datetime)
                t.column("audioPath", .text)
                t.column("pendingEdit", .jsonText)
                t.column("editedAt", .datetime)
                t.column("editBase", .jsonText)
                t.column("pendingDelete", .boolean).notNull()
            }
            try db.create(table: "upload") { t in
                t.primaryKey("entryID", .blob).references("entry", onDelete: .cascade)
                t.column("attempts", .integer).notNull()
                t.column("nextAttemptAt", .datetime).notNull()
                t.column("lastError", .text)
            }
            try db.create(table: "syncState") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("cursor", .text)
                t.column("accountID", .blob)
                t.column("lastSyncAt", .datetime)
            }
        }
        migrator.registerMigration("v2: device transcripts wait with their upload") { db in
            try db.alter(table: "upload") { t in
                t.add(column: "deviceTranscript", .jsonText)
                t.add(column: "awaitsDeviceTranscript", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v3: full-text search") { db in
            // Kept by GRDB's triggers on `entry`, with the server's tokenizer (ADR 0025).
            try db.create(virtualTable: "entrySearch", using: FTS5()) { t in
                t.synchronize(withTable: "entry")
                t.tokenizer = .unicode61(diacritics: .remove)
                t.column("title")
                t.column("tags")
                t.column("transcriptClean")
            }
        }
        migrator.registerMigration("v4: transcripts that need a look") { db in
            try db.alter(table: "entry") { t in t.add(column: "reviewReason", .text) }
        }
        migrator.registerMigration("v5: how far a transcription is") { db in
            try db.alter(table: "entry") { t in t.add(column: "transcriptionPercent", .integer) }
        }
        migrator.registerMigration("v6: audio the server confirmed") { db in
            try db.alter(table: "entry") { t in t.add(column: "audioConfirmedAt", .datetime) }
        }
        migrator.registerMigration("v7: imported files wait with the hash of their bytes") { db in
            try db.alter(table: "upload") { t in t.add(column: "sourceSHA256", .text) }
            try db.create(index: "upload_source", on: "upload", columns: ["sourceSHA256"])
            // The files this device imported and the entries they became, so importing again copies nothing.
            try db.create(table: "importedSource") { t in
                t.primaryKey("sha256", .text)
                t.column("entryID", .blob).notNull()
            }
        }
        migrator.registerMigration("v8: words the person edited") { db in
            try db.alter(table: "entry") { t in t.add(column: "wordsEdited", .boolean).notNull().defaults(to: false) }
        }
        return migrator
    }
}
