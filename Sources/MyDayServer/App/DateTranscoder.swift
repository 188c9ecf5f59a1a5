import Foundation
import OpenAPIRuntime

/// RFC 3339 dates with or without fractional seconds in, with milliseconds out.
struct RFC3339DateTranscoder: DateTranscoder {
    /// Built once: making a format style is far dearer than using one.
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    func encode(_ date: Date) throws -> String {
        Self.withFraction.format(date)
    }

    func decode(_ text: String) throws -> Date {
        if let date = try? Self.withFraction.parse(text) { return date }
        if let date = try? Self.withoutFraction.parse(text) { return date }
        throw DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "'\(text.prefix(40))' is not an RFC 3339 date-time"))
    }
}
