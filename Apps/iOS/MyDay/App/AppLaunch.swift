import MyDayKit
import Observation

/// The app model once the diary opened, or why it could not (a full disk, a launch before the first unlock), with a
/// way to try again once the person did what it says.
@MainActor
@Observable
final class AppLaunch {
    private(set) var model: AppModel?
    private(set) var problem: DiaryUnavailable?

    init() {
        open()
    }

    /// Opens the diary again, after the person freed space or unlocked the iPhone.
    func tryAgain() {
        guard model == nil else { return }
        open()
    }

    private func open() {
        do {
            model = try AppModel()
            problem = nil
        } catch let unavailable as DiaryUnavailable {
            problem = unavailable
        } catch {
            problem = DiaryUnavailable(error)
        }
    }
}
