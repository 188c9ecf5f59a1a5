import Foundation
import SQLKit

/// An export of a date range as the server keeps it.
struct ExportRecord: Sendable, Equatable {
    enum Status: String, Sendable { case queued, building, ready, failed, expired }

    let id: UUID
    let userID: UUID
    /// First and last calendar day (`YYYY-MM-DD`) in `timeZone`, both included.
    let from: String
    let to: String
    let timeZone: String
    /// The account's verified address the link is mailed to; nil when nothing is mailed.
    let email: String?
    let formats: [String]
    let status: Status
    let failureReason: String?
    let entryCount: Int?
    let audioCount: Int?
    let untranscribedCount: Int?
    let sizeBytes: Int?
    let blobKey: String?
    let linkExpiresAt: Date?
    let createdAt: Date

    static let columns = """
        id, user_id, from_date, to_date, tz, email, formats, status, failure_reason, entry_count, audio_count, \
        untranscribed_count, size_bytes, blob_key, link_expires_at, created_at
        """

    init(row: any SQLRow) throws {
        id = try row.decodeUUID(column: "id")
        userID = try row.decodeUUID(column: "user_id")
        from = try row.decode(column: "from_date", as: String.self)
        to = try row.decode(column: "to_date", as: String.self)
        timeZone = try row.decode(column: "tz", as: String.self)
        email = try row.decodeOptional(column: "email", as: String.self)
        formats = try JSONDecoder().decode([String].self, from: Data(try row.decode(column: "formats", as: String.self).utf8))
        status = try row.decodeRawValue(column: "status")
        failureReason = try row.decodeOptional(column: "failure_reason", as: String.self)
        entryCount = try row.decodeOptional(column: "entry_count", as: Int.self)
        audioCount = try row.decodeOptional(column: "audio_count", as: Int.self)
        untranscribedCount = try row.decodeOptional(column: "untranscribed_count", as: Int.self)
        sizeBytes = try row.decodeOptional(column: "size_bytes", as: Int.self)
        blobKey = try row.decodeOptional(column: "blob_key", as: String.self)
        linkExpiresAt = try row.decodeOptional(column: "link_expires_at", as: Int.self).map(StoredTime.date(milliseconds:))
        createdAt = StoredTime.date(milliseconds: try row.decode(column: "created_at", as: Int.self))
    }

    /// Whether the archive may still be downloaded.
    func isDownloadable(now: Date = Date()) -> Bool {
        status == .ready && blobKey != nil && (linkExpiresAt ?? .distantPast) > now
    }

    /// The instants the range covers: from the first day's midnight to the midnight after the last day.
    static func interval(from: String, to: String, timeZone: TimeZone) -> (start: Date, end: Date)? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func midnight(_ text: String) -> Date? {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, text.count == 10,
                let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
                calendar.dateComponents([.year, .month, .day], from: date)
                    == DateComponents(year: parts[0], month: parts[1], day: parts[2])
            else { return nil }
            return calendar.startOfDay(for: date)
        }
        guard let start = midnight(from), let last = midnight(to),
            let end = calendar.date(byAdding: .day, value: 1, to: last)
        else { return nil }
        return (start, end)
    }
}
