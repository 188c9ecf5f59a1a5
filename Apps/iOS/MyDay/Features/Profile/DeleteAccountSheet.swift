import MyDayKit
import SwiftUI

/// "Delete Account and Data": what is deleted, the typed confirmation, the password for email accounts.
struct DeleteAccountSheet: View {
    @Bindable var viewModel: ProfileViewModel
    /// Whether a recording is under way, which deleting the account now would discard.
    let appModel: AppModel

    @State private var password = ""
    @State private var isDeleting = false
    @State private var hasTried = false
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    Text(
                        """
                        This deletes your account and every entry, recording and transcript, on your server and on this \
                        iPhone, including entries not sent yet. This cannot be undone.
                        """)
                }
                Section {
                    TextField("Type \(ProfileViewModel.deleteConfirmationWord) to confirm", text: $viewModel.deleteConfirmation)
                        .textInputAutocapitalization(.characters)
                        .autocorrectionDisabled()
                } footer: {
                    Text("Type \(ProfileViewModel.deleteConfirmationWord) in capital letters.")
                }
                Section {
                    SecureField("Password", text: $password)
                        .textContentType(.password)
                } footer: {
                    Text("Needed when you sign in with email and password; leave it empty for Apple or Google.")
                }
                if hasTried, let message = viewModel.errorMessage {
                    Section {
                        Text(message.localizedForDisplay)
                            .foregroundStyle(.red)
                    }
                }
                Section {
                    Button(role: .destructive) {
                        delete()
                    } label: {
                        HStack {
                            Text("Delete Account and Data")
                            if isDeleting {
                                Spacer()
                                ProgressView()
                            }
                        }
                    }
                    .disabled(!viewModel.canDeleteAccount || isDeleting || appModel.isRecording)
                } footer: {
                    if appModel.isRecording {
                        Text("Stop the recording under way first: signing out or deleting your account now would lose it.")
                    }
                }
            }
            .navigationTitle("Delete Account")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel") { dismiss() }
                        .disabled(isDeleting)
                }
            }
        }
        .interactiveDismissDisabled(isDeleting)
    }

    private func delete() {
        guard !appModel.isRecording else { return }
        isDeleting = true
        hasTried = true
        Task {
            await viewModel.deleteAccount(password: password.isEmpty ? nil : password)
            isDeleting = false
        }
    }
}
