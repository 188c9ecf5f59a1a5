import AppIntents
import Foundation
import MyDayKit

/// Siri, Shortcuts and Spotlight: "Record My Day", "Type a note in My Day", "Read today's entries in My Day".
struct MyDayShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: ToggleRecordingIntent(),
            phrases: ["Record \(.applicationName)", "Start recording in \(.applicationName)"],
            shortTitle: "Record", systemImageName: "mic.fill")
        AppShortcut(
            intent: TypeNoteIntent(),
            phrases: ["Type a note in \(.applicationName)", "Add a note to \(.applicationName)"],
            shortTitle: "Type a note", systemImageName: "square.and.pencil")
        AppShortcut(
            intent: ReadTodayIntent(),
            phrases: ["Read today's entries in \(.applicationName)", "What did I say today in \(.applicationName)"],
            shortTitle: "Today's entries", systemImageName: "text.book.closed")
    }
}

/// "Type a note in My Day": Siri asks for the words, and the note joins today like one typed on Home (kept on the
/// iPhone and sent when it can be).
struct TypeNoteIntent: AppIntent {
    static var title: LocalizedStringResource { "Type a note" }
    static var description: IntentDescription { "Adds a typed note to today in My Day." }

    @Parameter(title: "Note", requestValueDialog: "What should the note say?")
    var text: String

    @MainActor
    func perform() async throws -> some IntentResult & ProvidesDialog {
        guard let model = AppModel.current else { throw DiaryClosed() }
        try await model.writeNote(text)
        return .result(dialog: "Added to today in My Day.")
    }
}

/// "Read today's entries in My Day": today's entries on this iPhone, read aloud (`TodayAloud`). Only with the iPhone
/// unlocked: Siri on a locked phone must not read the diary to whoever holds it.
struct ReadTodayIntent: AppIntent {
    static var title: LocalizedStringResource { "Read today's entries" }
    static var description: IntentDescription { "Reads today's entries in My Day aloud." }
    static var authenticationPolicy: IntentAuthenticationPolicy { .requiresAuthentication }

    @MainActor
    func perform() async throws -> some IntentResult & ProvidesDialog {
        guard let model = AppModel.current else { throw DiaryClosed() }
        let text = TodayAloud.text(try model.core.store.entries(), now: Date())
        return .result(dialog: "\(text)")
    }
}

/// The diary could not be opened (a full iPhone, say): the app itself says why.
struct DiaryClosed: Error, CustomLocalizedStringResourceConvertible {
    var localizedStringResource: LocalizedStringResource { "My Day could not open your diary. Open the app to see why." }
}
