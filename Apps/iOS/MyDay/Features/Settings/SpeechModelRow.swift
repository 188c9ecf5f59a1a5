import MyDayKit
import SwiftUI

/// The speech model of iOS 26 for the person's language: a button that asks iOS to download it, its progress, or a
/// plain state. Nothing shows where there is no model to get (before iOS 26).
struct SpeechModelRow: View {
    let settings: DeviceSettings

    var body: some View {
        let model = settings.speechModel
        switch model.status {
        case .notOffered:
            EmptyView()
        case .unavailable:
            Text("No speech model is available for \(model.language).")
                .foregroundStyle(.secondary)
        case .notDownloaded:
            VStack(alignment: .leading, spacing: 6) {
                Button {
                    Task { await settings.downloadSpeechModel() }
                } label: {
                    Label("Download the speech model for \(model.language)", systemImage: "arrow.down.circle")
                }
                // Only the button itself starts the download, not a tap anywhere in the row.
                .buttonStyle(.borderless)
                .accessibilityHint("Asks iOS to download it from Apple. Your recordings are not sent.")
                Text(
                    """
                    Not downloaded. Until it is, this iPhone uses its older recognizer where it can; \
                    your server transcribes the rest.
                    """
                )
                .font(.footnote)
                .foregroundStyle(.secondary)
                problem
            }
        case .downloading(let fraction):
            VStack(alignment: .leading, spacing: 6) {
                ProgressView(value: fraction) {
                    Text("Downloading the speech model for \(model.language)…")
                }
                Text("iOS finishes the download when the network allows, also after you leave this screen.")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                problem
            }
        case .ready:
            Label("The speech model for \(model.language) is on this iPhone.", systemImage: "checkmark.circle")
                .foregroundStyle(.secondary)
        }
    }

    @ViewBuilder
    private var problem: some View {
        if let reason = settings.speechModelProblem {
            FailureLabel(reason: String(localized: "The download did not finish: \(reason)"))
        }
    }
}
