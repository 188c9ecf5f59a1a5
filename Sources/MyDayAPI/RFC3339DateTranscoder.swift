import Foundation
import OpenAPIRuntime

/// RFC 3339 dates with or without fractional seconds in, with milliseconds out.
public struct RFC3339DateTranscoder: DateTranscoder {
    /// A date-time that is not RFC 3339; answered as 400 with the text it got.
    public struct InvalidDate: Error {
        public let text: String
    }

    private static var shape: Regex<(Substring, Substring, Substring, Substring, Substring, Substring?, Substring, Substring?)> {
        /\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)/
    }

    /// Built once: making a format style is far dearer than using one.
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    public init() {}

    public func encode(_ date: Date) throws -> String {
        Self.format(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for a moment in whole milliseconds since 1970. Written by hand: the format style
    /// truncates the binary fraction, so 15.840 s came out as "15.839", and it is the dearest part of a listing.
    public static func format(milliseconds: Int64) -> String {
        let (seconds, millisecond) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (days, secondOfDay) = (millisecond < 0 ? seconds - 1 : seconds).quotientAndRemainder(dividingBy: 86_400)
        let day = secondOfDay < 0 ? days - 1 : days
        let second = (secondOfDay + 86_400) % 86_400
        let (year, month, dayOfMonth) = civil(daysSince1970: day)
        guard (1...9999).contains(year) else {
            return withFraction.format(Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000))
        }
        var text = [UInt8]()
        text.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(UInt8(ascii: "-"))
        digits(month, 2)
        text.append(UInt8(ascii: "-"))
        digits(dayOfMonth, 2)
        text.append(UInt8(ascii: "T"))
        digits(second / 3600, 2)
        text.append(UInt8(ascii: ":"))
        digits(second / 60 % 60, 2)
        text.append(UInt8(ascii: ":"))
        digits(second % 60, 2)
        text.append(UInt8(ascii: "."))
        digits((millisecond + 1000) % 1000, 3)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Foundation's parser would take `12:99` as `13:39` and February 30 as March 2, so each field's range is checked
    /// first: month 01–12, a day the month has, hour 00–23, minute 00–59, second 00–60, an offset of at most 23:59.
    /// RFC 3339's lower-case `t` and `z` are read as `T` and `Z`, which is all Foundation takes.
    public func decode(_ text: String) throws -> Date {
        guard let match = text.wholeMatch(of: Self.shape), let year = Int(text.prefix(4)),
            Int(match.2)! <= Self.daysIn(month: Int(match.1)!, year: year)
        else { throw InvalidDate(text: String(text.prefix(40))) }
        let text = text.uppercased()
        if let date = Self.parse(text) { return date }
        // RFC 3339 allows offsets up to ±23:59; Foundation's time zones stop at ±18:00, so apply larger ones by hand.
        if let match = text.wholeMatch(of: /(.+)([+-])([01][0-9]|2[0-3]):([0-5][0-9])/), let utc = Self.parse(match.1 + "Z") {
            let offset = (Double(match.3)! * 3600 + Double(match.4)! * 60) * (match.2 == "+" ? 1 : -1)
            return utc.addingTimeInterval(-offset)
        }
        throw InvalidDate(text: String(text.prefix(40)))
    }

    /// 28 to 31, by the proleptic Gregorian calendar's leap years.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func parse(_ text: some StringProtocol) -> Date? {
        let text = String(text)
        return (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }
}
