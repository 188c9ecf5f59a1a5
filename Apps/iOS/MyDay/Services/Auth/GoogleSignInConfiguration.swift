import Foundation
import GoogleSignIn

/// Google sign-in's OAuth client, from Info.plist `GIDClientID` (the build setting `MYDAY_GOOGLE_CLIENT_ID`).
@MainActor
enum GoogleSignInConfiguration {
    /// Nil when the build sets no client id: the app then offers no Google sign-in.
    static var clientID: String? {
        let value = (Bundle.main.object(forInfoDictionaryKey: "GIDClientID") as? String)?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value, !value.isEmpty, !value.hasPrefix("$(") else { return nil }
        return value
    }

    /// Gives Google's SDK the client id, once at launch.
    static func configure() {
        guard let clientID else { return }
        GIDSignIn.sharedInstance.configuration = GIDConfiguration(clientID: clientID)
    }
}
