import Foundation
import OpenAPIRuntime

/// RFC 3339 dates with or without fractional seconds in, with milliseconds out.
public struct RFC3339DateTranscoder: DateTranscoder {
    /// A date-time that is not RFC 3339; answered as 400 with the text it got.
    public struct InvalidDate: Error {
        public let text: String
    }

    /// Built once: making a format style is far dearer than using one.
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    public init() {}

    public func encode(_ date: Date) throws -> String {
        Self.withFraction.format(date)
    }

    public func decode(_ text: String) throws -> Date {
        if let date = Self.parse(text) { return date }
        // RFC 3339 allows offsets up to ±23:59; Foundation's time zones stop at ±18:00, so apply larger ones by hand.
        if let match = text.wholeMatch(of: /(.+)([+-])([01][0-9]|2[0-3]):([0-5][0-9])/), let utc = Self.parse(match.1 + "Z") {
            let offset = (Double(match.3)! * 3600 + Double(match.4)! * 60) * (match.2 == "+" ? 1 : -1)
            return utc.addingTimeInterval(-offset)
        }
        throw InvalidDate(text: String(text.prefix(40)))
    }

    private static func parse(_ text: some StringProtocol) -> Date? {
        let text = String(text)
        return (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }
}
