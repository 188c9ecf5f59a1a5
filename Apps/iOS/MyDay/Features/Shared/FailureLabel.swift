import SwiftUI

/// A failure told in place, in red with a warning sign: a transcription or an export that did not work.
struct FailureLabel: View {
    let reason: String

    var body: some View {
        Label {
            Text(reason.localizedForDisplay)
        } icon: {
            Image(systemName: "exclamationmark.triangle")
        }
        .foregroundStyle(.red)
    }
}
