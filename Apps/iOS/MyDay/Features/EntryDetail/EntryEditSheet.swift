import MyDayKit
import MyDayModels
import SwiftUI

/// Edits an entry's title, tags and mood; only the fields that changed are sent.
struct EntryEditSheet: View {
    let entry: LocalEntry
    let save: (EntryEdit) -> Void

    @State private var title: String
    @State private var tags: String
    @State private var mood: Int
    @Environment(\.dismiss) private var dismiss

    init(entry: LocalEntry, save: @escaping (EntryEdit) -> Void) {
        self.entry = entry
        self.save = save
        _title = State(initialValue: entry.title ?? "")
        _tags = State(initialValue: entry.tags.joined(separator: ", "))
        _mood = State(initialValue: entry.mood ?? 0)
    }

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField("Title", text: $title)
                        .submitLabel(.done)
                } header: {
                    Text("Title")
                } footer: {
                    if let problem = EntryDetailViewModel.titleProblem(title) {
                        Text(problem.localizedForDisplay)
                            .foregroundStyle(.red)
                    }
                }
                Section {
                    TextField("walk, family", text: $tags)
                        .textInputAutocapitalization(.never)
                        .accessibilityLabel("Tags")
                } header: {
                    Text("Tags")
                } footer: {
                    Text("Separate tags with commas.")
                }
                Section("Mood") {
                    Picker("Mood", selection: $mood) {
                        Text("None").tag(0)
                        Text("1 · low").tag(1)
                        Text("2").tag(2)
                        Text("3").tag(3)
                        Text("4").tag(4)
                        Text("5 · great").tag(5)
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
                        save(edit)
                        dismiss()
                    }
                    .disabled(edit.isEmpty || EntryDetailViewModel.titleProblem(title) != nil)
                }
            }
        }
    }

    /// The fields that differ from the entry; a removed title is "" and a removed mood 0, as `EntryEdit` spells them.
    private var edit: EntryEdit {
        let newTitle = title.trimmingCharacters(in: .whitespacesAndNewlines)
        let newTags = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return EntryEdit(
            title: newTitle == (entry.title ?? "") ? nil : newTitle,
            tags: newTags == entry.tags ? nil : newTags,
            mood: mood == (entry.mood ?? 0) ? nil : mood)
    }
}
