import Foundation
import MyDayKit

/// Remembers in UserDefaults that the long-press hint was shown, under the key the screens' `@AppStorage` reads.
@MainActor
final class AppStorageHintStore: HintStore {
    static let key = "hasShownStopHint"
    private let defaults: UserDefaults

    init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    var hasShownStopHint: Bool { defaults.bool(forKey: Self.key) }

    func markStopHintShown() {
        defaults.set(true, forKey: Self.key)
    }
}
