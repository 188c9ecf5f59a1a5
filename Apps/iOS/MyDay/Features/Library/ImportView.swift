import MyDayKit
import SwiftUI
import UniformTypeIdentifiers

/// Import recordings: audio files picked in Files (or shared with My Day) and Day One exports, each with what became
/// of it. The files are read where they lie, while the picker's access lasts; MyDayKit decides the rest.
struct ImportView: View {
    @State var viewModel: ImportViewModel
    /// Files shared with the app to import as soon as the sheet opens.
    var shared: [URL] = []
    @State private var isPicking = false
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            List {
                Section {
                    Button {
                        isPicking = true
                    } label: {
                        Label("Choose files", systemImage: "folder")
                    }
                    .disabled(viewModel.isWorking)
                } footer: {
                    Text(
                        "Recordings become entries of the moment they were recorded: the time in the file itself, else a date in its name, else when it was last changed. Day One exports (JSON, as a zip) come in with their dates and tags. Nothing is imported twice."
                    )
                }
                if !viewModel.rows.isEmpty {
                    Section {
                        ForEach(viewModel.rows) { row in
                            VStack(alignment: .leading, spacing: 2) {
                                Text(row.name).font(.headline)
                                Text(viewModel.stateText(row).localizedForDisplay)
                                    .foregroundStyle(row.isFailure ? .red : .secondary)
                            }
                            .accessibilityElement(children: .combine)
                        }
                    } header: {
                        Text(viewModel.summary.localizedForDisplay)
                    }
                }
            }
            .navigationTitle("Import recordings")
            .toolbar {
                ToolbarItem(placement: .confirmationAction) {
                    Button("Done") { dismiss() }
                }
            }
            .overlay {
                if viewModel.isWorking { ProgressView() }
            }
        }
        .fileImporter(isPresented: $isPicking, allowedContentTypes: [.audio, .zip], allowsMultipleSelection: true) { result in
            guard case .success(let urls) = result else { return }
            Task { await importPicked(urls) }
        }
        .task {
            guard !shared.isEmpty else { return }
            await viewModel.importShared(shared)
        }
    }

    /// Reads picked files under their security-scoped access, given back once they are in the queue.
    private func importPicked(_ urls: [URL]) async {
        let opened = urls.filter { $0.startAccessingSecurityScopedResource() }
        defer {
            for url in opened { url.stopAccessingSecurityScopedResource() }
        }
        await viewModel.importFiles(urls)
    }
}
