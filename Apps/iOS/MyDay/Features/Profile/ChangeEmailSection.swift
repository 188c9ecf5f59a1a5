import MyDayKit
import SwiftUI

/// A new address for the account: a link goes there, and the address changes when it is opened.
struct ChangeEmailSection: View {
    let viewModel: ProfileViewModel
    @State private var newEmail = ""
    @State private var password = ""

    var body: some View {
        Section {
            TextField("New address", text: $newEmail)
                .textContentType(.emailAddress)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
            if viewModel.account?.hasPassword == true {
                SecureField("Your password", text: $password)
                    .textContentType(.password)
            }
            Button("Send the link") {
                Task {
                    await viewModel.changeEmail(to: newEmail, proof: password.isEmpty ? nil : .password(password))
                    if viewModel.emailChangeMessage != nil { password = "" }
                }
            }
            .disabled(newEmail.isEmpty)
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
