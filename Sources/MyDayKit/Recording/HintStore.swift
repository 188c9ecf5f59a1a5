import Foundation

/// Remembers whether the long-press-to-stop hint has been shown, so it appears on the first recording only.
@MainActor
public protocol HintStore: AnyObject {
    var hasShownStopHint: Bool { get }
    func markStopHintShown()
}
