import MyDayKit
import SwiftUI

/// The account's ways to sign in (password, Apple, Google), each removable by a swipe while another remains.
struct SignInMethodsSection: View {
    let viewModel: ProfileViewModel
    @State private var pendingRemoval: SignInMethod?

    var body: some View {
        Section {
            ForEach(viewModel.signInMethods) { method in
                HStack {
                    Text(method.label)
                    Spacer()
                    if viewModel.canRemoveSignInMethod {
                        Button("Remove", role: .destructive) { pendingRemoval = method }
                            .buttonStyle(.borderless)
                            .accessibilityLabel("Remove \(method.label)")
                    }
                }
            }
            if let notice = viewModel.signInNotice {
                Text(notice.localizedForDisplay)
                    .foregroundStyle(.secondary)
            }
        } header: {
            Text("Ways to sign in")
        } footer: {
            Text("The last way to sign in cannot be removed.")
        }
        .task { await viewModel.loadSignInMethods() }
        .confirmationDialog(
            "Stop signing in with \(pendingRemoval?.label ?? "")?", isPresented: isConfirming, titleVisibility: .visible
        ) {
            Button("Remove", role: .destructive) {
                guard let method = pendingRemoval else { return }
                Task { await viewModel.removeSignInMethod(method) }
            }
        }
    }

    private var isConfirming: Binding<Bool> {
        Binding(get: { pendingRemoval != nil }, set: { if !$0 { pendingRemoval = nil } })
    }
}
