import MyDayKit
import MyDayModels
import SwiftUI

/// Edits an entry's title, tags, mood and when it was made (in its own time zone); only the fields that changed are
/// sent.
struct EntryEditSheet: View {
    let save: (EntryEdit) -> Void

    @State private var draft: EntryEditDraft
    @Environment(\.dismiss) private var dismiss

    init(entry: LocalEntry, save: @escaping (EntryEdit) -> Void) {
        self.save = save
        _draft = State(initialValue: EntryEditDraft(entry: entry))
    }

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField("Title", text: $draft.title)
                        .submitLabel(.done)
                } header: {
                    Text("Title")
                } footer: {
                    if let problem = draft.titleProblem {
                        Text(problem.localizedForDisplay)
                            .foregroundStyle(.red)
                    }
                }
                Section {
                    TextField("walk, family", text: $draft.tags)
                        .textInputAutocapitalization(.never)
                        .accessibilityLabel("Tags")
                } header: {
                    Text("Tags")
                } footer: {
                    Text("Separate tags with commas.")
                }
                Section {
                    DatePicker("When", selection: $draft.when, in: EntryEditDraft.earliest...Date.now)
                        .environment(\.timeZone, draft.timeZone)
                } footer: {
                    Text("In \(draft.zoneName) time. A new date moves the entry to that day.")
                }
                Section("Mood") {
                    Picker("Mood", selection: $draft.mood) {
                        Text("None").tag(0)
                        ForEach(EntryEditDraft.moods, id: \.value) { mood in
                            Text(mood.label.localizedForDisplay).tag(mood.value)
                        }
                    }
                }
            }
            .navigationTitle("Edit entry")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel") { dismiss() }
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Save") {
                        save(draft.edit)
                        dismiss()
                    }
                    .disabled(!draft.canSave)
                }
            }
        }
    }
}
