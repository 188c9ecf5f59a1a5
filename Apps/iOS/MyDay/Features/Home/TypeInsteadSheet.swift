import MyDayKit
import SwiftUI

/// "Type instead": today's entry written rather than spoken.
struct TypeInsteadSheet: View {
    @Bindable var viewModel: HomeViewModel

    @FocusState private var isEditorFocused: Bool

    var body: some View {
        NavigationStack {
            VStack(alignment: .leading, spacing: 12) {
                TextEditor(text: $viewModel.typedText)
                    .focused($isEditorFocused)
                    .scrollContentBackground(.hidden)
                    .padding(8)
                    .background(Color(uiColor: .secondarySystemBackground), in: RoundedRectangle(cornerRadius: 16))
                    .accessibilityLabel("Your entry")
                if let message = viewModel.errorMessage {
                    ErrorBanner(message: message)
                }
            }
            .padding()
            .navigationTitle("Type instead")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel") {
                        viewModel.isTypingInstead = false
                    }
                    .accessibilityHint("Keeps what you wrote for next time.")
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Save") {
                        Task { await viewModel.saveTypedEntry() }
                    }
                    .disabled(!viewModel.canSaveTypedEntry)
                    .accessibilityHint("Saves the entry and sends it to your server.")
                }
            }
            .onAppear { isEditorFocused = true }
        }
        .presentationDetents([.medium, .large])
    }
}
