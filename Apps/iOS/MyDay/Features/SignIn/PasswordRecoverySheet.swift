import MyDayKit
import SwiftUI

/// "Forgot password?": the server mails a link to the account's address; its token (or the whole link, pasted) and a
/// new password sign in here. The link also opens the web app, which can do the same.
struct PasswordRecoverySheet: View {
    @State var email: String
    @State private var token: String
    @State private var newPassword = ""
    @State private var notice: String?
    @State private var attempt = SignInAttempt()
    @Environment(AppModel.self) private var appModel
    @Environment(\.dismiss) private var dismiss

    /// `token`: of a mailed link that opened the app, so only the new password is left to type.
    init(email: String, token: String = "") {
        _email = State(initialValue: email)
        _token = State(initialValue: token)
    }

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField("Email", text: $email)
                        .textContentType(.username)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    Button("Mail me a link", action: sendLink)
                        .disabled(attempt.isWorking || email.trimmingCharacters(in: .whitespaces).isEmpty)
                    if let notice {
                        Text(notice.localizedForDisplay)
                            .foregroundStyle(.secondary)
                    }
                } footer: {
                    Text("We mail a link that sets a new password to the address of your account. It works once, for 30 minutes.")
                }
                Section {
                    TextField("The link from the mail", text: $token)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    SecureField("New password", text: $newPassword)
                        .textContentType(.newPassword)
                    Button("Set the password and sign in", action: reset)
                        .disabled(attempt.isWorking || token.isEmpty || !SignInAttempt.isLongEnough(newPassword: newPassword))
                } header: {
                    Text("Set a new password")
                } footer: {
                    Text("At least 8 characters. Every device signed in now will be signed out.")
                }
                if let errorMessage = attempt.errorMessage {
                    Text(errorMessage.localizedForDisplay)
                        .foregroundStyle(.red)
                }
            }
            .navigationTitle("Forgot password")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel") { dismiss() }
                }
            }
        }
    }

    private func sendLink() {
        let address = email.trimmingCharacters(in: .whitespaces)
        attempt.run {
            try await appModel.forgotPassword(email: address)
            notice = "Check your mail. If an account has \(address), a link is on its way."
        }
    }

    private func reset() {
        let link = token
        let password = newPassword
        attempt.run {
            try await appModel.resetPassword(token: link, newPassword: password)
            dismiss()
        }
    }
}
