import Foundation
import SQLKit

/// What a user's diary takes on the server, as the storage quota counts it: the audio of every live entry (declared
/// sizes, so audio still on its way is counted too) and every export archive not yet deleted. (PostgreSQL sums
/// BIGINTs as NUMERIC: the casts bring the figures back to integers.)
enum StorageUsage {
    static func bytes(userID: UUID, in db: any SQLDatabase) async throws -> Int {
        try await db.raw(
            """
            SELECT CAST(
                COALESCE((SELECT SUM(size_bytes) FROM entries
                    WHERE user_id = \(bind: userID.lowercased) AND deleted_at IS NULL AND size_bytes IS NOT NULL), 0)
                + COALESCE((SELECT SUM(size_bytes) FROM exports
                    WHERE user_id = \(bind: userID.lowercased) AND blob_key IS NOT NULL AND size_bytes IS NOT NULL), 0)
                AS BIGINT) AS used
            """
        ).first()?.decode(column: "used", as: Int.self) ?? 0
    }

    /// "1.2 GB": a size as people read it, in decimal units like the Files app.
    static func spoken(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }
}

/// The user's storage quota would be exceeded: answered as 413 with both figures.
struct QuotaExceeded: Error, Equatable {
    let usedBytes: Int
    let quotaBytes: Int
    let neededBytes: Int
}
