import Foundation
import MyDaySearch

/// What the widgets show of the diary, saved where their extension reads it (the App Group's defaults), with the
/// widgets of the kind that changed told to redraw: the streak, and On this day (without the diary's words while the
/// app is locked).
@MainActor
public struct WidgetShelf {
    /// The widgets' kinds: the extension declares each widget under its kind, the app redraws it by it.
    public nonisolated static let streakKind = "DiaryStreak"
    public nonisolated static let onThisDayKind = "OnThisDay"

    private let defaults: UserDefaults?
    private let reload: @MainActor (_ kind: String?) -> Void

    /// `defaults` is nil where the App Group is not configured (nothing is saved); `reload` redraws the widgets of a
    /// kind, or every widget for nil.
    public init(defaults: UserDefaults?, reload: @escaping @MainActor (_ kind: String?) -> Void) {
        self.defaults = defaults
        self.reload = reload
    }

    /// The streak of the entries on this device.
    public func showStreak(of store: LocalStore) {
        guard let defaults, let entries = try? store.entries() else { return }
        DiaryStreak.of(entries).save(to: defaults)
        reload(Self.streakKind)
    }

    /// The days before today the server finds, with their words unless `words` says no once the answer is in (the
    /// lock may have been turned on meanwhile). Left as it was when the server cannot be reached (it shows only on its
    /// own day). The day asked about is the day saved: an answer that arrives after midnight is still that day's.
    public func showOnThisDay(
        asking client: any MyDayClient, words: @MainActor () -> Bool, now: Date = Date(), timeZone: TimeZone = .current
    ) async {
        let today = LocalDay(now, in: timeZone)
        guard let defaults, let found = try? await client.onThisDay(today.description, timeZone: timeZone.identifier) else {
            return
        }
        OnThisDayWidgetContent(day: today, found: found, words: words()).save(to: defaults)
        reload(Self.onThisDayKind)
    }

    /// Takes the diary's words out of On this day at once (the lock was turned on).
    public func hideWords() {
        guard let defaults, let saved = OnThisDayWidgetContent.saved(in: defaults) else { return }
        saved.withoutWords.save(to: defaults)
        reload(Self.onThisDayKind)
    }

    /// Shows nothing of the diary: nobody is signed in (the next person to sign in on this device included).
    public func forget() {
        guard let defaults else { return }
        DiaryStreak.forget(in: defaults)
        OnThisDayWidgetContent.forget(in: defaults)
        reload(nil)
    }
}
