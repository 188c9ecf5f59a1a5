import Foundation

/// A `HintStore` that forgets on relaunch: for tests and previews.
@MainActor
public final class InMemoryHintStore: HintStore {
    public private(set) var hasShownStopHint: Bool

    public init(hasShownStopHint: Bool = false) {
        self.hasShownStopHint = hasShownStopHint
    }

    public func markStopHintShown() {
        hasShownStopHint = true
    }
}
