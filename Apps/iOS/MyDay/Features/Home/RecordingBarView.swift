import MyDayKit
import SwiftUI

/// The bar at the bottom of every screen but Home while a recording is under way: its state and time, pause or
/// resume, stop, and a tap on it goes back to Home. A recording is never going on unseen.
struct RecordingBarView: View {
    let viewModel: HomeViewModel
    let bar: HomeViewModel.RecordingBar
    let openHome: () -> Void

    var body: some View {
        HStack(spacing: 12) {
            Button(action: openHome) {
                HStack(spacing: 8) {
                    Image(systemName: "record.circle")
                        .foregroundStyle(.red)
                        .accessibilityHidden(true)
                    TimelineView(.periodic(from: .now, by: 0.5)) { _ in
                        Text(
                            "\(bar.status.localizedForDisplay) \(viewModel.elapsedText(at: ProcessInfo.processInfo.systemUptime))"
                        )
                        .monospacedDigit()
                    }
                    Spacer(minLength: 0)
                }
                .contentShape(Rectangle())
            }
            .buttonStyle(.plain)
            .accessibilityHint(Text("Goes back to the recording."))
            if let pauseLabel = bar.pauseLabel {
                Button(pauseLabel.localizedForDisplay) {
                    Task { await viewModel.recordButtonTapped() }
                }
                .buttonStyle(.bordered)
                Button("Stop") {
                    Task { await viewModel.stopTapped() }
                }
                .buttonStyle(.borderedProminent)
            }
        }
        .padding(.horizontal, 16)
        .padding(.vertical, 10)
        .frame(minHeight: 44)
        .background(.bar)
    }
}
