import MyDayKit
import SwiftUI

/// A title, tags and a mood suggested from the entry's own words, each accepted with one tap; nothing changes before.
struct SuggestionsSection: View {
    let viewModel: EntryDetailViewModel
    let suggestions: Suggestions

    var body: some View {
        VStack(alignment: .leading, spacing: 10) {
            Text("Suggested from your words")
                .font(.headline)
            if let title = suggestions.title {
                row(Text("Title: “\(title)”"), label: "Use “\(title)” as the title") {
                    await viewModel.acceptSuggestedTitle()
                }
            }
            if !suggestions.tags.isEmpty {
                let tags = suggestions.tags.joined(separator: ", ")
                row(Text("Tags: \(tags)"), label: "Add the tags \(tags)") { await viewModel.acceptSuggestedTags() }
            }
            if let mood = suggestions.mood {
                row(Text("Mood: \(mood) of 5"), label: "Set the mood to \(mood) of 5") {
                    await viewModel.acceptSuggestedMood()
                }
            }
        }
        .padding(16)
        .background(Color(uiColor: .secondarySystemBackground), in: RoundedRectangle(cornerRadius: 16, style: .continuous))
    }

    private func row(_ text: Text, label: String, accept: @escaping @MainActor () async -> Void) -> some View {
        HStack {
            text
            Spacer()
            Button("Use") { Task { await accept() } }
                .buttonStyle(.bordered)
                .accessibilityLabel(label)
        }
    }
}
