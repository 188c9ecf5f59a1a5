import Foundation

/// A job's payload: JSON in the `jobs.payload` column.
protocol JobPayload: Codable, Sendable {}

extension JobPayload {
    var json: String { String(decoding: try! JSONEncoder().encode(self), as: UTF8.self) }

    static func decode(_ payload: String) throws -> Self {
        try JSONDecoder().decode(Self.self, from: Data(payload.utf8))
    }
}
