import MyDayKit
import SwiftUI

/// "Your server": the address of the My Day server to sign in to, checked before it is used.
struct ServerAddressView: View {
    @Environment(AppModel.self) private var appModel
    @State private var address = ""
    @State private var problem: String?
    @State private var isExpanded = false

    var body: some View {
        DisclosureGroup("Your server", isExpanded: $isExpanded) {
            VStack(alignment: .leading, spacing: 12) {
                TextField("https://myday.example.com", text: $address)
                    .keyboardType(.URL)
                    .textContentType(.URL)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                    .submitLabel(.done)
                    .onSubmit(apply)
                    .modifier(SignInFieldStyle())
                    .accessibilityLabel("Server address")
                if let problem {
                    Text(problem.localizedForDisplay)
                        .font(.footnote)
                        .foregroundStyle(.red)
                } else {
                    Text("Signing in to \(appModel.serverURL.absoluteString)")
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                }
                Button("Use this server", action: apply)
                    .frame(minHeight: 44)
                    .disabled(ServerAddress.names(address, current: appModel.serverURL))
            }
            .padding(.top, 8)
        }
        .onAppear { address = appModel.serverURL.absoluteString }
    }

    /// Uses the address when it is a web address with a host (https:// is assumed when none is typed).
    private func apply() {
        guard let url = ServerAddress.url(from: address) else {
            problem = String(localized: "Enter an address that starts with https:// (or http:// on your own network).")
            return
        }
        problem = nil
        appModel.serverURL = url
        address = appModel.serverURL.absoluteString
    }
}
