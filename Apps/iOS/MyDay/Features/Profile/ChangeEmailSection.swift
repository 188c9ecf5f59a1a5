import MyDayKit
import SwiftUI

/// A new address for the account: a link goes there, and the address changes when it is opened.
struct ChangeEmailSection: View {
    @Bindable var viewModel: ProfileViewModel

    var body: some View {
        Section {
            TextField("New address", text: $viewModel.newEmail)
                .textContentType(.emailAddress)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
            if viewModel.account?.hasPassword == true {
                SecureField("Your password", text: $viewModel.emailChangePassword)
                    .textContentType(.password)
            }
            Button("Send the link") {
                Task { await viewModel.changeEmail() }
            }
            .disabled(!viewModel.canChangeEmail)
            if let message = viewModel.emailChangeMessage {
                Text(message.localizedForDisplay)
            }
        } header: {
            Text("Change your email address")
        } footer: {
            Text("A link goes to the new address; your address changes when you open it, and the old one is told.")
        }
    }
}
