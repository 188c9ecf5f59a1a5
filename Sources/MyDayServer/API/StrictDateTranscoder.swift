import Foundation
import MyDayAPI
import OpenAPIRuntime

/// RFC 3339 date-times as the API reads them: Foundation's parser would take `12:99` as `13:39`, so each field's range
/// is checked first; encoding is the runtime's.
struct StrictDateTranscoder: DateTranscoder {
    private let runtime = RFC3339DateTranscoder()

    /// Month 01–12, day 01–31, hour 00–23, minute 00–59, second 00–60, an offset of at most 23:59.
    private static var shape: Regex<(Substring, Substring, Substring, Substring, Substring, Substring?, Substring, Substring?)> {
        /\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)/
    }

    func encode(_ date: Date) throws -> String { try runtime.encode(date) }

    func decode(_ text: String) throws -> Date {
        guard text.wholeMatch(of: Self.shape) != nil else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "'\(text)' is not an RFC 3339 date-time."))
        }
        return try runtime.decode(text)
    }
}
