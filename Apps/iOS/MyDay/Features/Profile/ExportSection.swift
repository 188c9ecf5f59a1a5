import MyDayKit
import SwiftUI

/// Export: choose the days, give the password when the server asks for it, then follow the archive until its link is
/// ready; the link can be deleted at once.
struct ExportSection: View {
    @Bindable var viewModel: ProfileViewModel
    let startExport: () -> Void
    let deleteExport: () -> Void

    var body: some View {
        Section {
            DatePicker("From", selection: $viewModel.exportFrom, displayedComponents: .date)
            DatePicker("To", selection: $viewModel.exportTo, displayedComponents: .date)
            if case .needsPassword = viewModel.export {
                SecureField("Your password", text: $viewModel.exportPassword)
                    .textContentType(.password)
            }
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
            if let address = viewModel.exportMailedTo {
                Text("The link was also mailed to \(address).")
                    .foregroundStyle(.secondary)
            }
            Button("Delete this export", role: .destructive, action: deleteExport)
        case .failed(let reason):
            FailureLabel(reason: reason)
        case .needsPassword(let reason):
            Text(reason.localizedForDisplay)
                .foregroundStyle(.secondary)
        }
    }

    private var isWorking: Bool {
        if case .working = viewModel.export { return true }
        return false
    }
}
