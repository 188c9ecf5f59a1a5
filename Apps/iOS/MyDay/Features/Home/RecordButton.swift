import MyDayKit
import SwiftUI

/// The big record button: a tap starts, pauses and resumes; holding it for three seconds stops, with a ring filling up.
///
/// The view only reports the finger going down and up, and ticks every frame while it is held; the view model
/// decides what a press meant (`pressBegan`, `pressEnded`, `holdTick(at:)`).
struct RecordButton: View {
    let viewModel: HomeViewModel

    @State private var isPressing = false
    @Environment(\.colorScheme) private var colorScheme
    @Environment(\.accessibilityReduceMotion) private var reduceMotion

    var body: some View {
        let recorder = viewModel.recorder
        ZStack {
            Circle()
                .stroke(Color(uiColor: .tertiarySystemFill), lineWidth: 6)
                .padding(3)
            TimelineView(.animation(paused: !isPressing)) { timeline in
                Circle()
                    .trim(from: 0, to: isPressing ? recorder.holdProgress(at: ProcessInfo.processInfo.systemUptime) : 0)
                    .stroke(Color.accentColor, style: StrokeStyle(lineWidth: 6, lineCap: .round))
                    .rotationEffect(.degrees(-90))
                    .padding(3)
                    .onChange(of: timeline.date) { reportHold() }
            }
            Circle()
                .fill(Color.accentColor)
                .padding(16)
                .shadow(color: .black.opacity(0.15), radius: 12, y: 6)
            if recorder.state == .stopping {
                ProgressView()
                    .controlSize(.large)
                    .tint(iconColour)
            } else {
                Image(systemName: recorder.state.buttonSymbol)
                    .font(.system(size: 64, weight: .semibold))
                    .foregroundStyle(iconColour)
            }
        }
        .frame(width: 200, height: 200)
        .contentShape(Circle())
        .scaleEffect(isPressing && !reduceMotion ? 0.97 : 1)
        .animation(.easeOut(duration: 0.12), value: isPressing)
        .onLongPressGesture(minimumDuration: recorder.stopHoldDuration, maximumDistance: 50) {
            reportHold()
        } onPressingChanged: { pressing in
            isPressing = pressing
            if pressing {
                // Tasks on the main actor start in order: the press is seen before its release.
                Task { await viewModel.pressBegan() }
            } else {
                Task { await viewModel.pressEnded() }
            }
        }
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(Text(viewModel.recordButtonLabel.localizedForDisplay))
        .accessibilityHint(Text("Tap to start. While recording, tap to pause; hold for three seconds to stop."))
        .accessibilityAddTraits(.isButton)
        .accessibilityAction {
            Task { await viewModel.recordButtonTapped() }
        }
        .accessibilityActions {
            if recorder.state.isActive {
                Button("Stop recording") {
                    Task { await viewModel.stopTapped() }
                }
            }
        }
    }

    /// Lets the view model stop the recording once the hold has lasted long enough.
    private func reportHold() {
        let uptime = ProcessInfo.processInfo.systemUptime
        Task { await viewModel.holdTick(at: uptime) }
    }

    /// White on the light terracotta, near-black on the brighter one of dark mode.
    private var iconColour: Color {
        colorScheme == .dark ? Color.black.opacity(0.85) : Color.white
    }
}
