import MyDayKit
import SwiftUI

/// Recently deleted: the entries deleted in the last 30 days, to bring back or delete for good (asked first).
struct RecentlyDeletedView: View {
    @State var viewModel: RecentlyDeletedViewModel
    @State private var erasing: DeletedEntry?

    var body: some View {
        List {
            if let message = viewModel.errorMessage {
                ErrorBanner(message: message) { Task { await viewModel.load() } }
            }
            if let notice = viewModel.notice {
                Label(notice.localizedForDisplay, systemImage: "checkmark.circle")
            }
            Section {
                ForEach(viewModel.entries, id: \.entry.id) { deleted in
                    row(deleted)
                }
            } footer: {
                Text("Entries you delete wait here for 30 days, then go for good with their recordings.")
            }
        }
        .overlay {
            if viewModel.entries.isEmpty && viewModel.errorMessage == nil {
                ContentUnavailableView(
                    "Nothing deleted", systemImage: "trash",
                    description: Text("Nothing was deleted in the last 30 days."))
            }
        }
        .confirmationDialog(
            "Delete for good?", isPresented: Binding(get: { erasing != nil }, set: { if !$0 { erasing = nil } }),
            presenting: erasing
        ) { deleted in
            Button("Delete for good", role: .destructive) { Task { await viewModel.erase(deleted) } }
        } message: { _ in
            Text("It cannot be brought back.")
        }
        .task { await viewModel.load() }
        .refreshable { await viewModel.load() }
        .navigationTitle("Recently deleted")
    }

    private func row(_ deleted: DeletedEntry) -> some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(viewModel.when(deleted))
                .font(.headline)
            Text(viewModel.title(deleted).localizedForDisplay)
                .lineLimit(2)
            Text(viewModel.timeLeft(deleted))
                .font(.caption)
                .foregroundStyle(.secondary)
        }
        .swipeActions(edge: .leading) {
            Button("Bring back") { Task { await viewModel.restore(deleted) } }
                .tint(.accentColor)
        }
        .swipeActions(edge: .trailing) {
            Button("Delete now", role: .destructive) { erasing = deleted }
        }
        .contextMenu {
            Button("Bring back", systemImage: "arrow.uturn.backward") { Task { await viewModel.restore(deleted) } }
            Button("Delete now", systemImage: "trash", role: .destructive) { erasing = deleted }
        }
    }
}
