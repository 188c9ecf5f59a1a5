import MyDayKit
import SwiftUI

/// "Words My Day should know": names of people and places the recognizer is taught, where each came from, added in a
/// field and removed by a swipe.
struct VocabularySection: View {
    @State var viewModel: VocabularyViewModel

    var body: some View {
        Section {
            ForEach(viewModel.words, id: \.text) { word in
                VStack(alignment: .leading, spacing: 2) {
                    Text(word.text)
                    Text(VocabularyViewModel.sourceText(word.source).localizedForDisplay)
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }
                .accessibilityElement(children: .combine)
                .swipeActions {
                    Button("Remove", role: .destructive) {
                        Task { await viewModel.remove(word) }
                    }
                }
            }
            HStack {
                TextField("Siobhan, Dún Laoghaire", text: $viewModel.newWord)
                    .textInputAutocapitalization(.words)
                    .autocorrectionDisabled()
                    .submitLabel(.done)
                    .onSubmit { Task { await viewModel.add() } }
                    .accessibilityLabel("Add words")
                Button("Add") {
                    Task { await viewModel.add() }
                }
                .disabled(!viewModel.canAdd)
            }
            if let message = viewModel.errorMessage {
                Text(message.localizedForDisplay)
                    .foregroundStyle(.red)
            }
        } header: {
            Text("Words My Day should know")
        } footer: {
            Text(
                """
                Names of people and places, and other rare words, so transcripts spell them right. My Day also learns \
                them from your titles, tags and corrections; swipe to remove one.
                """)
        }
        .task { await viewModel.load() }
    }
}
