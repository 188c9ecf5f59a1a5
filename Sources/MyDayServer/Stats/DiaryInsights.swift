import MyDaySearch

/// Insights over a span of days: what each day holds, the streaks, and what the entries mention most.
struct DiaryInsights: Sendable, Equatable {
    /// A day of the span that holds entries.
    struct Day: Sendable, Equatable {
        let date: LocalDay
        let entries: Int
        let seconds: Double
        let words: Int
        let mood: Int?
    }

    /// One entry as insights need it.
    struct Entry: Sendable {
        /// The day it was made, in its own time zone.
        let day: LocalDay
        let seconds: Double
        let text: String?
        let mood: Int?
        let tags: [String]
    }

    let days: [Day]
    let streaks: Streaks
    let mentions: Mentions

    /// `entries` are those of the span; `diaryDays` every day of the diary with an entry, for the streaks.
    init(entries: [Entry], diaryDays: Set<LocalDay>, today: LocalDay) {
        days = Dictionary(grouping: entries, by: \.day).map { day, entries in
            Day(
                date: day, entries: entries.count, seconds: entries.reduce(0) { $0 + $1.seconds },
                words: entries.reduce(0) { $0 + DiaryStats.wordCount($1.text) }, mood: Self.mood(of: entries.compactMap(\.mood)))
        }.sorted { $0.date < $1.date }
        streaks = Streaks(days: diaryDays, today: today)
        mentions = Mentions(entries.map { Mentions.Source(text: $0.text ?? "", tags: $0.tags) })
    }

    /// The mean of moods, rounded half up; nil for none.
    static func mood(of moods: [Int]) -> Int? {
        moods.isEmpty ? nil : Int((Double(moods.reduce(0, +)) / Double(moods.count)).rounded(.toNearestOrAwayFromZero))
    }
}
