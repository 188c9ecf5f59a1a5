import MyDayKit
import MyDayModels
import SwiftUI

/// Edits an entry's title, tags, mood and when it was made (in its own time zone); only the fields that changed are
/// sent.
struct EntryEditSheet: View {
    let entry: LocalEntry
    let save: (EntryEdit) -> Void

    @State private var title: String
    @State private var tags: String
    @State private var mood: Int
    @State private var when: Date
    @Environment(\.dismiss) private var dismiss

    init(entry: LocalEntry, save: @escaping (EntryEdit) -> Void) {
        self.entry = entry
        self.save = save
        _title = State(initialValue: entry.title ?? "")
        _tags = State(initialValue: entry.tags.joined(separator: ", "))
        _mood = State(initialValue: entry.mood ?? 0)
        _when = State(initialValue: entry.createdAt)
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
                Section {
                    DatePicker("When", selection: $when, in: Self.earliest...Date.now)
                        .environment(\.timeZone, TimeZone(identifier: entry.timeZone) ?? .current)
                } footer: {
                    Text(
                        "In \(entry.timeZone.replacingOccurrences(of: "_", with: " ")) time. A new date moves the entry to that day."
                    )
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
            mood: mood == (entry.mood ?? 0) ? nil : mood,
            moment: abs(when.timeIntervalSince(entry.createdAt)) < 1
                ? nil : EntryMoment(createdAt: when, timeZone: entry.timeZone))
    }

    /// The earliest moment an entry may have, as the server allows.
    private static let earliest = Date(timeIntervalSince1970: 946_684_800)
}
