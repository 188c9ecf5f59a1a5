import MyDayKit
import SwiftUI

/// Export: choose the days, give the password when the server asks for it, then follow the archive until its link is
/// ready; the archive can be saved in Files or iCloud Drive, and the link deleted at once.
struct ExportSection: View {
    @Bindable var viewModel: ProfileViewModel
    let appModel: AppModel
    /// Starts the export, with a fresh Apple or Google sign-in as the proof when one is given.
    let startExport: (SignInProof?) -> Void
    let deleteExport: () -> Void
    /// The downloaded archive while the file exporter shows it.
    @State private var archive: ArchiveDocument?
    @State private var isDownloading = false

    var body: some View {
        Section {
            DatePicker("From", selection: $viewModel.exportFrom, displayedComponents: .date)
            DatePicker("To", selection: $viewModel.exportTo, displayedComponents: .date)
            if case .needsPassword = viewModel.export {
                if viewModel.account?.hasPassword != false {
                    SecureField("Your password", text: $viewModel.exportPassword)
                        .textContentType(.password)
                }
                providerProof
            }
            Button("Export") { startExport(nil) }
                .disabled(viewModel.isExporting)
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
            Button {
                Task { await saveToFiles() }
            } label: {
                Label(isDownloading ? "Downloading…" : "Save to Files", systemImage: "folder.badge.plus")
            }
            .disabled(isDownloading)
            .accessibilityHint("Saves the archive where you choose: on this iPhone, in iCloud Drive or another place in Files.")
            .fileExporter(
                isPresented: Binding(get: { archive != nil }, set: { if !$0 { finishSaving() } }), document: archive,
                contentType: .zip, defaultFilename: archive?.file.deletingPathExtension().lastPathComponent
            ) { _ in
                finishSaving()
            }
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

    /// Downloads the archive, then lets the person choose where it goes.
    private func saveToFiles() async {
        isDownloading = true
        defer { isDownloading = false }
        if let file = await viewModel.downloadArchive() { archive = ArchiveDocument(file: file) }
    }

    /// The exporter wrote its copy (or was cancelled): the downloaded file goes.
    private func finishSaving() {
        if let file = archive?.file { try? FileManager.default.removeItem(at: file) }
        archive = nil
    }

    /// "Confirm with Apple / Google": a fresh sign-in with the account linked to My Day, instead of the password.
    @ViewBuilder
    private var providerProof: some View {
        if viewModel.isLinked(.apple) {
            AppleProofButton { token, nonce in startExport(.provider(.apple, token: token, nonce: nonce)) }
        }
        if viewModel.isLinked(.google) {
            Button("Confirm with Google and export") {
                guard let presenter = PresentingViewController.top() else { return }
                Task {
                    guard let proof = try? await appModel.googleProof(presenting: presenter) else { return }
                    startExport(proof)
                }
            }
        }
    }
}
