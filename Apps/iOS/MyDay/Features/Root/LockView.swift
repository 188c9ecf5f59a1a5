import MyDayKit
import SwiftUI

/// What shows while the diary is locked: nothing of it, and the way to unlock. Face ID is asked for as it appears.
struct LockView: View {
    let lock: AppLock
    @State private var isAsking = false

    var body: some View {
        VStack(spacing: 16) {
            Image(systemName: "lock.fill")
                .font(.largeTitle)
                .accessibilityHidden(true)
            Text("My Day is locked")
                .font(.title2)
            Button("Unlock with \(DeviceOwnerCheck.methodName)") {
                Task { await unlock() }
            }
            .buttonStyle(.borderedProminent)
            .disabled(isAsking)
        }
        .frame(maxWidth: .infinity, maxHeight: .infinity)
        .background(.background)
        .task { await unlock() }
    }

    private func unlock() async {
        guard !isAsking else { return }
        isAsking = true
        defer { isAsking = false }
        if await DeviceOwnerCheck.confirm(reason: String(localized: "Unlock your diary.")) {
            lock.unlocked()
        }
    }
}

/// Covers the diary while the app is not in front and its lock is on, so the app switcher's picture shows none of it.
struct PrivacyCover: View {
    var body: some View {
        Image(systemName: "lock.fill")
            .font(.largeTitle)
            .foregroundStyle(.secondary)
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            .background(.background)
            .accessibilityHidden(true)
    }
}
