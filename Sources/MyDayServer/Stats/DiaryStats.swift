import Foundation

/// The Profile's figures, computed from a user's live entries in one time zone.
struct DiaryStats: Sendable, Equatable {
    struct Month: Sendable, Equatable {
        /// `YYYY-MM`.
        let month: String
        let entries: Int
        let durationSeconds: Double
    }

    /// One entry as the figures need it.
    struct Entry: Sendable {
        let createdAt: Date
        let durationSeconds: Double
        let words: Int
    }

    let totalEntries: Int
    let totalDurationSeconds: Double
    let words: Int
    let currentStreakDays: Int
    let longestStreakDays: Int
    let months: [Month]

    init(entries: [Entry], timeZone: TimeZone, now: Date = Date()) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func day(_ date: Date) -> DateComponents { calendar.dateComponents([.year, .month, .day], from: date) }

        totalEntries = entries.count
        totalDurationSeconds = entries.reduce(0) { $0 + $1.durationSeconds }
        words = entries.reduce(0) { $0 + $1.words }

        var byMonth: [String: (entries: Int, duration: Double)] = [:]
        for entry in entries {
            let parts = day(entry.createdAt)
            let key = String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
            byMonth[key, default: (0, 0)].entries += 1
            byMonth[key, default: (0, 0)].duration += entry.durationSeconds
        }
        months = byMonth.keys.sorted().map {
            Month(month: $0, entries: byMonth[$0]!.entries, durationSeconds: byMonth[$0]!.duration)
        }

        // Days with an entry, as consecutive day numbers in the time zone.
        let days = Set(entries.compactMap { calendar.date(from: day($0.createdAt)) }.map { calendar.startOfDay(for: $0) })
        var longest = 0
        for start in days where !days.contains(calendar.date(byAdding: .day, value: -1, to: start)!) {
            var length = 1
            var next = calendar.date(byAdding: .day, value: 1, to: start)!
            while days.contains(next) {
                length += 1
                next = calendar.date(byAdding: .day, value: 1, to: next)!
            }
            longest = max(longest, length)
        }
        longestStreakDays = longest

        let today = calendar.startOfDay(for: now)
        var cursor = days.contains(today) ? today : calendar.date(byAdding: .day, value: -1, to: today)!
        var current = 0
        while days.contains(cursor) {
            current += 1
            cursor = calendar.date(byAdding: .day, value: -1, to: cursor)!
        }
        currentStreakDays = current
    }

    /// Words in a text: runs of letters or digits, so punctuation and spacing do not count.
    static func wordCount(_ text: String?) -> Int {
        guard let text else { return 0 }
        return text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "’" }).count
    }
}
