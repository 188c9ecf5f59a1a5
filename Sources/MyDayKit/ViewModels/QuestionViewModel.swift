import Foundation
import MyDaySearch
import Observation

/// The gentle question on Home: off until the person turns it on (a setting of this device), at most one a day, gone
/// for the day with one tap.
@MainActor
@Observable
public final class QuestionViewModel {
    public private(set) var question: DiaryQuestion?

    private let core: ClientCore
    private let timeZone: TimeZone
    private let defaults: UserDefaults
    private let now: @Sendable () -> Date

    static let onKey = "myday.question.on"
    static let dismissedKey = "myday.question.dismissed"

    public init(
        core: ClientCore, timeZone: TimeZone = .current, defaults: UserDefaults = .standard,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.core = core
        self.timeZone = timeZone
        self.defaults = defaults
        self.now = now
    }

    /// Whether Home asks; off until the person turns it on.
    public var isOn: Bool {
        get {
            access(keyPath: \.isOn)
            return defaults.bool(forKey: Self.onKey)
        }
        set {
            withMutation(keyPath: \.isOn) { defaults.set(newValue, forKey: Self.onKey) }
            if !newValue { question = nil }
        }
    }

    private var today: String { LocalDay(now(), in: timeZone).description }

    /// Asks the server for today's question, when it is on and today's was not dismissed; a failure shows nothing.
    public func load() async {
        guard isOn, defaults.string(forKey: Self.dismissedKey) != today else {
            question = nil
            return
        }
        question = (try? await core.client.question(timeZone: timeZone.identifier)) ?? nil
    }

    /// Puts today's question away until tomorrow.
    public func dismiss() {
        defaults.set(today, forKey: Self.dismissedKey)
        question = nil
    }
}
