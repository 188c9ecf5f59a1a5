import MyDayKit
import SwiftUI

/// The transcript area: the text, or why it is not there yet.
struct TranscriptView: View {
    let transcript: EntryDetailViewModel.Transcript

    var body: some View {
        switch transcript {
        case .waiting(let state):
            HStack(spacing: 12) {
                ProgressView()
                Text(state.localizedForDisplay)
            }
            .foregroundStyle(.secondary)
        case .noSpeech:
            Text("Nothing was said.")
                .foregroundStyle(.secondary)
        case .failed(let reason):
            FailureLabel(reason: reason)
        case .text(let text):
            Text(text)
                .font(.body)
                .lineSpacing(6)
                .frame(maxWidth: .infinity, alignment: .leading)
                .textSelection(.enabled)
        }
    }
}
