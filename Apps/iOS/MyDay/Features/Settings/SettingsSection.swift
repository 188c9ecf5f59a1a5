import MyDayKit
import SwiftUI

/// The app's settings: uploads on Wi-Fi only, transcription on this iPhone when the device can (with the speech model
/// iOS 26 downloads when the person asks), how long recordings stay, and the lock.
struct SettingsSection: View {
    @Bindable var settings: DeviceSettings

    var body: some View {
        Section {
            Toggle("Upload only on Wi-Fi", isOn: $settings.uploadOnlyOnWiFi)
                .accessibilityHint("Recordings wait on this iPhone until it is on Wi-Fi.")
            Toggle("Transcribe on this iPhone", isOn: $settings.transcribeOnDevice)
                .disabled(!settings.onDeviceTranscriptionAvailable)
                .accessibilityHint("Turns recordings into text here; your server still keeps the audio.")
            if settings.transcribeOnDevice && settings.onDeviceTranscriptionAvailable {
                SpeechModelRow(settings: settings)
            }
            Picker("Keep recordings on this iPhone", selection: $settings.audioKeeping) {
                ForEach(AudioKeeping.choices, id: \.self) { choice in
                    Text(choice.label.localizedForDisplay).tag(choice)
                }
            }
            .accessibilityHint("After this, a recording your server has plays from the server. Unsent ones always stay.")
            Toggle("Lock with \(DeviceOwnerCheck.methodName)", isOn: $settings.lockEnabled)
                .disabled(!settings.lockEnabled && !DeviceOwnerCheck.isAvailable)
                .accessibilityHint("My Day asks for it when it opens, and when it comes back after a while.")
            if settings.lockEnabled {
                Picker("Lock again", selection: $settings.lockDelay) {
                    ForEach(AppLock.Delay.allCases) { delay in
                        Text(delay.label.localizedForDisplay).tag(delay)
                    }
                }
            }
        } header: {
            Text("Settings")
        } footer: {
            if let reason = settings.onDeviceTranscriptionUnavailableReason {
                Text(reason.localizedForDisplay)
            } else {
                Text("When your iPhone cannot transcribe a recording, your server does.")
            }
        }
        .task { await settings.refreshSpeechModel() }
    }
}
