import Foundation
import MyDaySearch

/// The Profile's figures, computed from a user's live entries, each on its own day (the day it was made, where it was
/// made), as the Library and Insights count them.
struct DiaryStats: Sendable, Equatable {
    struct Month: Sendable, Equatable {
        /// `YYYY-MM`.
        let month: String
        let entries: Int
        let durationSeconds: Double
    }

    /// One entry as the figures need it.
    struct Entry: Sendable {
        let day: LocalDay
        let durationSeconds: Double
        let words: Int
    }

    let totalEntries: Int
    let totalDurationSeconds: Double
    let words: Int
    let currentStreakDays: Int
    let longestStreakDays: Int
    let months: [Month]

    /// `today` is the day in the person's time zone now.
    init(entries: [Entry], today: LocalDay) {
        totalEntries = entries.count
        totalDurationSeconds = entries.reduce(0) { $0 + $1.durationSeconds }
        words = entries.reduce(0) { $0 + $1.words }

        var byMonth: [String: (entries: Int, duration: Double)] = [:]
        for entry in entries {
            let key = String(format: "%04d-%02d", entry.day.year, entry.day.month)
            byMonth[key, default: (0, 0)].entries += 1
            byMonth[key, default: (0, 0)].duration += entry.durationSeconds
        }
        months = byMonth.keys.sorted().map {
            Month(month: $0, entries: byMonth[$0]!.entries, durationSeconds: byMonth[$0]!.duration)
        }

        let streaks = Streaks(days: Set(entries.map(\.day)), today: today)
        currentStreakDays = streaks.current
        longestStreakDays = streaks.longest
    }

    /// Words in a text: runs of letters or digits (and apostrophes), so punctuation and spacing do not count. Text
    /// of ASCII alone, most of a diary, is counted byte by byte, with the same answer.
    static func wordCount(_ text: String?) -> Int {
        guard let text else { return 0 }
        var count = 0
        var inWord = false
        for byte in text.utf8 {
            guard byte < 0x80 else {
                return text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "’" }).count
            }
            let isWordByte = byte.isASCIILetterOrDigit || byte == UInt8(ascii: "'")
            if isWordByte, !inWord { count += 1 }
            inWord = isWordByte
        }
        return count
    }
}
