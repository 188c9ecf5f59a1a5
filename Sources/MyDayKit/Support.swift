import Foundation
import MyDayAPI

extension JSONEncoder {
    /// The encoding of MyDayKit's own files: ISO 8601 dates with fractions, sorted keys.
    static var myDay: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try RFC3339DateTranscoder().encode(date))
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what `JSONEncoder.myDay` wrote.
    static var myDay: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try RFC3339DateTranscoder().decode(text)
        }
        return decoder
    }
}

/// File operations MyDayKit needs to be atomic.
enum FileSystem {
    /// Puts `source` at `destination` in one rename, replacing what was there.
    static func replace(_ destination: URL, with source: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path, "errno": errno])
        }
    }

    /// Writes `data` to a file beside `destination`, then renames it into place: a reader sees the old contents or
    /// the new, and the file is never missing (Foundation's `.atomic` on Linux removes the old file first).
    static func write(_ data: Data, replacing destination: URL) throws {
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            try replace(destination, with: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
