import Foundation
import GoogleSignIn
import MyDayKit

/// Google sign-in's OAuth client, from Info.plist `GIDClientID` (the build setting `MYDAY_GOOGLE_CLIENT_ID`).
@MainActor
enum GoogleSignInConfiguration {
    /// Nil when the build sets no client id: the app then offers no Google sign-in.
    static var clientID: String? {
        ServerAddress.buildSetting(Bundle.main.object(forInfoDictionaryKey: "GIDClientID") as? String)
    }

    /// Gives Google's SDK the client id, once at launch.
    static func configure() {
        guard let clientID else { return }
        GIDSignIn.sharedInstance.configuration = GIDConfiguration(clientID: clientID)
    }
}
