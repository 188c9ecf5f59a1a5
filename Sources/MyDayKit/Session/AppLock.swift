import Foundation
import Observation

/// The optional lock in front of the diary (Face ID, Touch ID or the device passcode): when it is on, the diary is
/// locked at launch and when the app comes back after being away for the chosen time or longer. Times are read on a
/// clock that goes on while the device sleeps, so a night away counts as a night.
@MainActor
@Observable
public final class AppLock {
    /// How long the app may be away before it locks again.
    public enum Delay: Int, Sendable, CaseIterable, Identifiable {
        case immediately = 0
        case oneMinute = 60
        case fiveMinutes = 300
        case fifteenMinutes = 900
        case oneHour = 3600

        public var id: Int { rawValue }

        /// What the setting is called beside each choice.
        public var label: String {
            switch self {
            case .immediately: "Immediately"
            case .oneMinute: "After 1 minute"
            case .fiveMinutes: "After 5 minutes"
            case .fifteenMinutes: "After 15 minutes"
            case .oneHour: "After 1 hour"
            }
        }

        /// The stored setting read back; an unknown value reads as the default (after 1 minute).
        public init(storedValue: Int?) {
            self = storedValue.flatMap(Delay.init(rawValue:)) ?? .oneMinute
        }
    }

    /// Whether the lock is on (the person's setting). Turning it off unlocks; turning it on does not lock at once.
    public var isEnabled: Bool {
        didSet { if !isEnabled { isLocked = false } }
    }
    public var delay: Delay
    /// Whether the diary is hidden behind the lock now.
    public private(set) var isLocked: Bool
    private var leftAt: ContinuousClock.Instant?

    /// At launch: locked when the lock is on.
    public init(isEnabled: Bool, delay: Delay) {
        self.isEnabled = isEnabled
        self.delay = delay
        isLocked = isEnabled
    }

    /// The app left the screen at `moment`. With no delay it locks at once, so the app switcher's picture of it
    /// shows nothing of the diary.
    public func appLeft(at moment: ContinuousClock.Instant) {
        guard isEnabled else { return }
        if !isLocked { leftAt = moment }
        if delay == .immediately { isLocked = true }
    }

    /// The app is back on the screen at `moment`: locked when it was away for the delay or longer.
    public func appReturned(at moment: ContinuousClock.Instant) {
        guard isEnabled, let leftAt else { return }
        self.leftAt = nil
        if moment - leftAt >= .seconds(delay.rawValue) { isLocked = true }
    }

    /// The person proved who they are.
    public func unlocked() {
        isLocked = false
        leftAt = nil
    }
}
