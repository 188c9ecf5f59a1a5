import MyDaySearch

/// Runs of consecutive days with at least one entry.
struct Streaks: Sendable, Equatable {
    /// The run that ends today or, while today has no entry yet, yesterday; 0 when neither has one.
    let current: Int
    let longest: Int

    init(days: Set<LocalDay>, today: LocalDay) {
        var longest = 0
        for start in days where !days.contains(start.adding(days: -1)) {
            var length = 1
            while days.contains(start.adding(days: length)) { length += 1 }
            longest = max(longest, length)
        }
        var cursor = days.contains(today) ? today : today.adding(days: -1)
        var current = 0
        while days.contains(cursor) {
            current += 1
            cursor = cursor.adding(days: -1)
        }
        self.current = current
        self.longest = longest
    }
}
