import Foundation
import MyDayKit

/// Words for a sign-in that failed: the server's own sentence when it gave one.
enum SignInErrorText {
    static func message(for error: any Error) -> String {
        switch error {
        case let error as MyDayClientError:
            error.description
        case let error as LocalStoreError:
            error.description
        case is URLError:
            String(localized: "Could not reach the server. Check the address under Your server.")
        default:
            error.localizedDescription
        }
    }
}
