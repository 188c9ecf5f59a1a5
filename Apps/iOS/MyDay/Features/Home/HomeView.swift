import AVFoundation
import Accessibility
import MyDayKit
import SwiftUI

/// Home: the big record button, the live waveform and elapsed time above it, Stop and "Type instead" below.
struct HomeView: View {
    @Bindable var viewModel: HomeViewModel
    @Environment(AppModel.self) private var appModel

    @Environment(\.verticalSizeClass) private var verticalSizeClass
    @Environment(\.dynamicTypeSize) private var dynamicTypeSize

    var body: some View {
        let recorder = viewModel.recorder
        let layout =
            verticalSizeClass == .compact
            ? AnyLayout(HStackLayout(spacing: 32)) : AnyLayout(VStackLayout(spacing: 24))
        layout {
            VStack(spacing: 16) {
                if !dynamicTypeSize.isAccessibilitySize {
                    Text("How was your day?")
                        .font(.title3)
                        .foregroundStyle(.secondary)
                }
                WaveformView(recorder: recorder)
                    .frame(maxWidth: 360)
                    .frame(height: 64)
                ElapsedTimeView(viewModel: viewModel)
            }
            RecordButton(viewModel: viewModel)
            VStack(spacing: 16) {
                if let hint = viewModel.stopHint {
                    StopHintView(text: hint)
                        .transition(.opacity)
                }
                HomeActions(viewModel: viewModel)
                HomeStatus(viewModel: viewModel)
                QuestionCard()
                OnThisDayCard()
                if let message = appModel.attentionMessage {
                    ErrorBanner(message: message)
                }
            }
        }
        .padding(.horizontal, 24)
        .padding(.vertical, 16)
        .frame(maxWidth: .infinity, maxHeight: .infinity)
        .dynamicTypeSize(...DynamicTypeSize.accessibility1)
        .animation(.easeInOut(duration: 0.2), value: viewModel.stopHint)
        .navigationTitle("My Day")
        .navigationBarTitleDisplayMode(.inline)
        .sheet(isPresented: $viewModel.isTypingInstead) {
            TypeInsteadSheet(viewModel: viewModel)
        }
        .sensoryFeedback(trigger: recorder.state) { old, new in
            // `SensoryFeedback.start` plays on watchOS only: the start is an impact on the iPhone.
            switch new.haptic(from: old) {
            case .firm: .impact(weight: .heavy)
            case .light: .impact(weight: .light)
            case .success: .success
            case .error: .error
            case nil: nil
            }
        }
        .onChange(of: recorder.announcement) { _, announcement in
            if let announcement {
                AccessibilityNotification.Announcement(announcement.localizedForDisplay).post()
            }
        }
    }
}

/// What follows the recorder whichever screen is showing (a recording can be stopped from the recording bar while
/// the Library is open): the Lock Screen control's state, background time while a recording is saved and until the
/// uploader has it (the phone may be locked right after Stop), and a failed take kept.
struct RecorderObservers: ViewModifier {
    let viewModel: HomeViewModel
    @Environment(AppModel.self) private var appModel
    @State private var savingTime = BackgroundTime(name: "Saving the recording")

    func body(content: Content) -> some View {
        let recorder = viewModel.recorder
        content
            .onChange(of: recorder.state.isActive, initial: true) { _, isActive in
                RecordingControlBridge.setIsRecording(isActive)
            }
            .onChange(of: recorder.state == .stopping || viewModel.isHandingOver) { _, working in
                savingTime.keep(while: working)
            }
            .onChange(of: recorder.state) { _, _ in
                Task {
                    await viewModel.recorderStateChanged()
                    appModel.recorderStateChanged()
                }
            }
    }
}

/// The recorded time, in monospaced digits so it does not jitter; ticks only while recording.
private struct ElapsedTimeView: View {
    let viewModel: HomeViewModel

    var body: some View {
        let isRecording = viewModel.recorder.state == .recording
        TimelineView(.animation(minimumInterval: 0.2, paused: !isRecording)) { _ in
            let text = viewModel.elapsedText(at: ProcessInfo.processInfo.systemUptime)
            Text(text)
                .font(.largeTitle.weight(.medium).monospacedDigit())
                .minimumScaleFactor(0.7)
                .lineLimit(1)
                .accessibilityLabel("Recorded time")
                .accessibilityValue(text)
        }
    }
}

/// The one-time coach mark under the record button.
private struct StopHintView: View {
    let text: String

    var body: some View {
        Text(text.localizedForDisplay)
            .font(.callout)
            .multilineTextAlignment(.center)
            .padding(.horizontal, 16)
            .padding(.vertical, 8)
            .background(Color(uiColor: .secondarySystemBackground), in: Capsule())
            .overlay(Capsule().stroke(Color(uiColor: .separator), lineWidth: 1))
    }
}

/// Stop (for people who cannot long-press) while a recording is under way, and "Type instead".
private struct HomeActions: View {
    let viewModel: HomeViewModel

    var body: some View {
        HStack(spacing: 16) {
            if viewModel.recorder.state.isActive {
                Button {
                    Task { await viewModel.stopTapped() }
                } label: {
                    Label("Stop", systemImage: "stop.fill")
                        .frame(minHeight: 44)
                }
                .buttonStyle(.bordered)
                .accessibilityHint("Stops and saves the recording.")
            }
            Button("Type instead") {
                viewModel.isTypingInstead = true
            }
            .frame(minHeight: 44)
            .accessibilityHint("Opens a page to write today's entry.")
        }
    }
}

/// What just happened (recording, paused, saved, failed) and any error, under the controls; when the microphone is
/// not allowed, a button to the settings where it is.
private struct HomeStatus: View {
    let viewModel: HomeViewModel
    @Environment(\.openURL) private var openURL

    var body: some View {
        VStack(spacing: 12) {
            if let announcement = viewModel.recorder.announcement {
                Text(announcement.localizedForDisplay)
                    .font(.callout)
                    .foregroundStyle(viewModel.recorder.state.isFailed ? Color.red : Color.secondary)
                    .multilineTextAlignment(.center)
                    .accessibilityHidden(true)
            }
            if viewModel.recorder.state.isFailed, AVAudioApplication.shared.recordPermission == .denied,
                let settings = URL(string: UIApplication.openSettingsURLString)
            {
                Button("Open Settings") { openURL(settings) }
                    .buttonStyle(.bordered)
                    .frame(minHeight: 44)
                    .accessibilityHint("Opens My Day's settings, where the microphone can be allowed.")
            }
            if let message = viewModel.errorMessage {
                ErrorBanner(message: message)
            }
        }
    }
}
