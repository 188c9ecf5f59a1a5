import Observation

/// The app's model once the diary opened, or why it could not (a full disk, a launch before the first unlock), with a
/// way to try again once the person did what it says.
@MainActor
@Observable
public final class DiaryLaunch<Model: AnyObject> {
    public private(set) var model: Model?
    public private(set) var problem: DiaryUnavailable?
    private let open: @MainActor () throws -> Model

    /// Opens the diary with `open` at once.
    public init(open: @escaping @MainActor () throws -> Model) {
        self.open = open
        attempt()
    }

    /// Opens the diary again, after the person freed space or unlocked the iPhone; nothing once it is open.
    public func tryAgain() {
        guard model == nil else { return }
        attempt()
    }

    private func attempt() {
        do {
            model = try open()
            problem = nil
        } catch let unavailable as DiaryUnavailable {
            problem = unavailable
        } catch {
            problem = DiaryUnavailable(error)
        }
    }
}
