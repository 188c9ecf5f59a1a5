import Foundation
import MyDaySearch

/// "On this day" as the widget shows it: the days before that the server found for one day, saved by the app where
/// the widget extension reads it. It shows only on the day it was found for (tomorrow has other days before), and
/// holds no words of the diary when the app is locked with Face ID: then only when and how many.
public struct OnThisDayWidgetContent: Sendable, Equatable, Codable {
    /// One day before, as the widget says it.
    public struct Memory: Sendable, Equatable, Codable {
        /// "A year ago".
        public var heading: String
        /// The first entry's title or opening words; nil when the diary's words stay out of widgets.
        public var preview: String?
        public var entryCount: Int
        /// `YYYY-MM-DD` of that day.
        public var date: String

        public init(heading: String, preview: String?, entryCount: Int, date: String) {
            self.heading = heading
            self.preview = preview
            self.entryCount = entryCount
            self.date = date
        }
    }

    /// The day the memories were found for ("2026-11-28").
    public var day: String
    public var memories: [Memory]

    /// What the server answered for `day`; with `words` false the previews are left out.
    public init(day: LocalDay, found: [PastDay], words: Bool) {
        self.day = day.description
        memories = found.map { past in
            let memory = OnThisDayViewModel.memory(past)
            return Memory(
                heading: memory.heading, preview: words ? memory.preview : nil, entryCount: memory.entryCount,
                date: memory.date)
        }
    }

    /// The memory to show at `moment` in `timeZone`, the furthest back first (a year ago says more than a week ago);
    /// nil when there is none for today.
    public func shown(at moment: Date, timeZone: TimeZone = .current) -> Memory? {
        guard day == LocalDay(moment, in: timeZone).description else { return nil }
        return memories.min { $0.date < $1.date }
    }

    /// The same days without their words: what stays once the person locks the app.
    public var withoutWords: OnThisDayWidgetContent {
        var copy = self
        for index in copy.memories.indices { copy.memories[index].preview = nil }
        return copy
    }

    private static let key = "onThisDayWidget"

    /// Saves it in `defaults` (the App Group's, which the widget extension reads).
    public func save(to defaults: UserDefaults) {
        defaults.set(try? JSONEncoder().encode(self), forKey: Self.key)
    }

    /// Takes it out of `defaults` when the session ends: a widget shows nothing of a diary nobody is signed in to.
    public static func forget(in defaults: UserDefaults) {
        defaults.removeObject(forKey: key)
    }

    /// What was saved in `defaults`, if anything.
    public static func saved(in defaults: UserDefaults) -> OnThisDayWidgetContent? {
        defaults.data(forKey: key).flatMap { try? JSONDecoder().decode(OnThisDayWidgetContent.self, from: $0) }
    }
}
