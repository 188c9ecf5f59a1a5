import MyDayKit
import SwiftUI

/// Export: choose the days, optionally an email address, then follow the archive until its link is ready.
struct ExportSection: View {
    @Bindable var viewModel: ProfileViewModel
    let startExport: () -> Void

    var body: some View {
        Section {
            DatePicker("From", selection: $viewModel.exportFrom, displayedComponents: .date)
            DatePicker("To", selection: $viewModel.exportTo, displayedComponents: .date)
            TextField("Also email the link to (optional)", text: $viewModel.exportEmail)
                .keyboardType(.emailAddress)
                .textContentType(.emailAddress)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
            Button("Export", action: startExport)
                .disabled(isWorking)
                .accessibilityHint("Builds a zip of the chosen days on your server.")
            progress
        } header: {
            Text("Export")
        } footer: {
            Text("A zip of your recordings and their clean transcripts, for the days you choose.")
        }
    }

    @ViewBuilder
    private var progress: some View {
        switch viewModel.export {
        case .idle:
            EmptyView()
        case .working(let state):
            HStack(spacing: 12) {
                ProgressView()
                Text(state.localizedForDisplay)
                    .foregroundStyle(.secondary)
            }
        case .ready(let url):
            Link(destination: url) {
                Label("Download export", systemImage: "arrow.down.circle")
            }
            ShareLink(item: url) {
                Label("Share the link", systemImage: "square.and.arrow.up")
            }
        case .failed(let reason):
            FailureLabel(reason: reason)
        }
    }

    private var isWorking: Bool {
        if case .working = viewModel.export { return true }
        return false
    }
}
