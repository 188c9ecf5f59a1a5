import MyDayKit
import SwiftUI

/// Email and password: sign in to an account, or create one.
struct EmailSignInForm: View {
    /// Whether the form signs in or creates an account.
    enum Mode: Hashable {
        case signIn
        case register
    }

    /// The field that has the keyboard.
    private enum Field: Hashable {
        case email
        case password
    }

    @Environment(AppModel.self) private var appModel
    @State private var mode = Mode.signIn
    @State private var email = ""
    @State private var password = ""
    @State private var attempt = SignInAttempt()
    @State private var isRecoveringPassword = false
    @FocusState private var focus: Field?

    var body: some View {
        VStack(spacing: 12) {
            Picker("Account", selection: $mode) {
                Text("Sign in").tag(Mode.signIn)
                Text("Create account").tag(Mode.register)
            }
            .pickerStyle(.segmented)
            TextField("Email", text: $email)
                .textContentType(.username)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
                .submitLabel(.next)
                .focused($focus, equals: .email)
                .onSubmit { focus = .password }
                .modifier(SignInFieldStyle())
            SecureField("Password", text: $password)
                .textContentType(mode == .register ? UITextContentType.newPassword : UITextContentType.password)
                .submitLabel(.go)
                .focused($focus, equals: .password)
                .onSubmit(submit)
                .modifier(SignInFieldStyle())
            if mode == .register {
                Text("At least 8 characters.")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                    .frame(maxWidth: .infinity, alignment: .leading)
            }
            if let errorMessage = attempt.errorMessage {
                Text(errorMessage.localizedForDisplay)
                    .font(.footnote)
                    .foregroundStyle(.red)
                    .frame(maxWidth: .infinity, alignment: .leading)
            }
            Button(action: submit) {
                ZStack {
                    if attempt.isWorking {
                        ProgressView()
                    } else {
                        mode == .register ? Text("Create account") : Text("Sign in")
                    }
                }
                .frame(maxWidth: .infinity, minHeight: 36)
            }
            .buttonStyle(.borderedProminent)
            .controlSize(.large)
            .disabled(!attempt.canSubmit(email: email, password: password))
            if mode == .signIn {
                Button("Forgot password?") { isRecoveringPassword = true }
                    .font(.footnote)
            }
        }
        .sheet(isPresented: $isRecoveringPassword) {
            PasswordRecoverySheet(email: email.trimmingCharacters(in: .whitespaces))
        }
    }

    private func submit() {
        guard attempt.canSubmit(email: email, password: password) else { return }
        let address = email.trimmingCharacters(in: .whitespaces)
        let secret = password
        let register = mode == .register
        attempt.run { try await appModel.signInWithEmail(address, password: secret, register: register) }
    }
}

/// A text field on the sign-in screen: roomy, rounded, at least 44 points high.
struct SignInFieldStyle: ViewModifier {
    func body(content: Content) -> some View {
        content
            .padding(.horizontal, 14)
            .frame(minHeight: 48)
            .background(Color(uiColor: .secondarySystemBackground), in: RoundedRectangle(cornerRadius: 12, style: .continuous))
    }
}
