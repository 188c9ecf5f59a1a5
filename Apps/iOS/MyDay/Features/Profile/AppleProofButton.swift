import AuthenticationServices
import MyDayKit
import SwiftUI

/// "Continue with Apple" for an action the server lets happen only after a fresh sign-in (an export, closing the
/// account): hands on Apple's new identity token and the raw nonce it was asked with.
struct AppleProofButton: View {
    let onProof: (_ token: String, _ nonce: String) -> Void
    @State private var nonce = SignInNonce.make()

    var body: some View {
        SignInWithAppleButton(.continue) { request in
            let fresh = SignInNonce.make()
            nonce = fresh
            request.nonce = fresh.sha256
        } onCompletion: { result in
            guard case .success(let authorization) = result,
                let credential = authorization.credential as? ASAuthorizationAppleIDCredential,
                let data = credential.identityToken, let token = String(data: data, encoding: .utf8)
            else { return }
            onProof(token, nonce.raw)
        }
        .frame(height: 44)
    }
}
