import AuthenticationServices
import GoogleSignInSwift
import MyDayKit
import SwiftUI

/// Sign-in: Apple, Google (when configured) or email and password, and which My Day server to use.
struct SignInView: View {
    @Environment(AppModel.self) private var appModel
    @Environment(\.colorScheme) private var colorScheme
    /// Made afresh for every Apple attempt: Apple gets its SHA-256, the server the raw value.
    @State private var nonce = SignInNonce.make()
    @State private var attempt = SignInAttempt()

    var body: some View {
        ScrollView {
            VStack(spacing: 32) {
                VStack(spacing: 12) {
                    Text("My Day")
                        .font(.largeTitle.weight(.semibold))
                    Text("A private voice diary. Press one button and talk about your day.")
                        .font(.title3)
                        .foregroundStyle(.secondary)
                        .multilineTextAlignment(.center)
                }
                .padding(.top, 40)
                VStack(spacing: 12) {
                    appleButton
                    if appModel.googleClientID != nil {
                        GoogleSignInButton(scheme: colorScheme == .dark ? .dark : .light, style: .wide) {
                            signInWithGoogle()
                        }
                        .accessibilityLabel("Sign in with Google")
                    }
                    if let errorMessage = attempt.errorMessage {
                        Text(errorMessage.localizedForDisplay)
                            .font(.footnote)
                            .foregroundStyle(.red)
                            .multilineTextAlignment(.center)
                    }
                }
                SeparatorWithWord()
                EmailSignInForm()
                ServerAddressView()
            }
            .padding(24)
            .frame(maxWidth: 480)
            .frame(maxWidth: .infinity)
        }
        .disabled(attempt.isWorking)
        .overlay {
            if attempt.isWorking {
                ProgressView()
                    .controlSize(.large)
            }
        }
    }

    private var appleButton: some View {
        SignInWithAppleButton(.signIn) { request in
            let fresh = SignInNonce.make()
            nonce = fresh
            request.requestedScopes = [.fullName, .email]
            request.nonce = fresh.sha256
        } onCompletion: { result in
            switch result {
            case .success(let authorization):
                signInWithApple(authorization)
            case .failure(let error):
                if (error as? ASAuthorizationError)?.code == .canceled { return }
                attempt.errorMessage = error.localizedDescription
            }
        }
        .signInWithAppleButtonStyle(colorScheme == .dark ? .white : .black)
        .frame(height: 50)
    }

    private func signInWithApple(_ authorization: ASAuthorization) {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential,
            let tokenData = credential.identityToken, let idToken = String(data: tokenData, encoding: .utf8)
        else {
            attempt.errorMessage = String(localized: "Apple did not send a sign-in token. Please try again.")
            return
        }
        let name = credential.fullName.map { PersonNameComponentsFormatter().string(from: $0) }
        let authorizationCode = credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) }
        let rawNonce = nonce.raw
        let appleUserID = credential.user
        attempt.run {
            try await appModel.signInWithApple(
                idToken: idToken, authorizationCode: authorizationCode, nonce: rawNonce,
                name: name?.isEmpty == false ? name : nil, appleUserID: appleUserID)
        }
    }

    private func signInWithGoogle() {
        guard let presenter = PresentingViewController.top() else {
            attempt.errorMessage = String(localized: "Google sign-in could not open. Please try again.")
            return
        }
        attempt.run { try await appModel.signInWithGoogle(presenting: presenter) }
    }
}

/// A thin rule with "or" in the middle, between the providers and the email form.
private struct SeparatorWithWord: View {
    var body: some View {
        HStack(spacing: 12) {
            line
            Text("or")
                .font(.footnote)
                .foregroundStyle(.secondary)
            line
        }
        .accessibilityHidden(true)
    }

    private var line: some View {
        Rectangle()
            .fill(Color(uiColor: .separator))
            .frame(height: 1)
    }
}
