import Foundation

/// Remembers in UserDefaults that the long-press hint was shown: once on a device, whatever the screen.
@MainActor
public final class DefaultsHintStore: HintStore {
    static let key = "hasShownStopHint"
    private let defaults: UserDefaults

    public init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    public var hasShownStopHint: Bool { defaults.bool(forKey: Self.key) }

    public func markStopHintShown() {
        defaults.set(true, forKey: Self.key)
    }
}
