import MyDayKit
import SwiftUI

/// "Delete Account and Data": what is deleted, the typed confirmation, and the proof of a recent sign-in: the password,
/// or a fresh sign-in with the Apple or Google account linked to it.
struct DeleteAccountSheet: View {
    @Bindable var viewModel: ProfileViewModel
    /// Whether a recording is under way, which deleting the account now would discard.
    let appModel: AppModel

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
                if viewModel.account?.hasPassword != false {
                    Section {
                        SecureField("Password", text: $viewModel.deletePassword)
                            .textContentType(.password)
                    } footer: {
                        Text("Needed unless you signed in in the last 5 minutes.")
                    }
                }
                if viewModel.isLinked(.apple) || viewModel.isLinked(.google) {
                    Section {
                        if viewModel.isLinked(.apple) {
                            AppleProofButton { token, nonce in delete(proof: .provider(.apple, token: token, nonce: nonce)) }
                        }
                        if viewModel.isLinked(.google) {
                            Button("Confirm with Google and delete") { confirmWithGoogle() }
                        }
                    } footer: {
                        Text("Or confirm it is you by signing in with the Apple or Google account linked to My Day.")
                    }
                    .disabled(!viewModel.canDeleteAccount || viewModel.isDeleting || appModel.isRecording)
                }
                if let message = viewModel.deleteMessage {
                    Section {
                        Text(message.localizedForDisplay)
                            .foregroundStyle(.red)
                    }
                }
                Section {
                    Button(role: .destructive) {
                        delete(proof: nil)
                    } label: {
                        HStack {
                            Text("Delete Account and Data")
                            if viewModel.isDeleting {
                                Spacer()
                                ProgressView()
                            }
                        }
                    }
                    .disabled(!viewModel.canDeleteAccount || viewModel.isDeleting || appModel.isRecording)
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
                        .disabled(viewModel.isDeleting)
                }
            }
        }
        .interactiveDismissDisabled(viewModel.isDeleting)
        .onAppear { viewModel.startDeletion() }
        .task { await viewModel.loadSignInMethods() }
    }

    private func confirmWithGoogle() {
        guard let presenter = PresentingViewController.top() else { return }
        Task {
            guard let proof = try? await appModel.googleProof(presenting: presenter) else { return }
            delete(proof: proof)
        }
    }

    /// Deletes with `proof`, or with the typed password when it is nil.
    private func delete(proof: SignInProof?) {
        guard !appModel.isRecording else { return }
        Task { await viewModel.deleteAccount(proof: proof) }
    }
}
