import MyDayKit
import SwiftUI

/// The Library: entries grouped by month and day, newest first, with their status; pull down to sync.
struct LibraryView: View {
    @State private var viewModel: LibraryViewModel
    @Environment(AppModel.self) private var appModel

    init(viewModel: LibraryViewModel) {
        _viewModel = State(initialValue: viewModel)
    }

    var body: some View {
        List {
            ForEach(viewModel.months) { month in
                ForEach(month.days) { day in
                    Section {
                        ForEach(day.rows) { row in
                            LibraryRow(row: row, retry: { retry(row.id) })
                        }
                    } header: {
                        DayHeader(month: day.id == month.days.first?.id ? month.title : nil, day: day.title)
                    }
                }
            }
        }
        .listStyle(.insetGrouped)
        .overlay {
            if viewModel.isEmpty && viewModel.errorMessage == nil {
                ContentUnavailableView(
                    "No entries yet", systemImage: "book.closed",
                    description: Text("Tap the record button on Home and talk about your day, or choose Type instead."))
            }
        }
        .safeAreaInset(edge: .top) {
            if let message = viewModel.errorMessage ?? appModel.attentionMessage {
                ErrorBanner(message: message) {
                    Task { await viewModel.refresh() }
                }
                .padding(.horizontal)
                .padding(.bottom, 8)
            }
        }
        .refreshable { await viewModel.refresh() }
        .task { await viewModel.observe() }
        .navigationTitle("Library")
        .navigationDestination(for: UUID.self) { id in
            EntryDestination(id: id)
        }
    }

    private func retry(_ id: UUID) {
        Task { await viewModel.retry(id) }
    }
}

/// A day's title, with its month's title above it on the month's first day.
private struct DayHeader: View {
    let month: String?
    let day: String

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            if let month {
                Text(month)
                    .font(.title3.weight(.semibold))
                    .foregroundStyle(.primary)
                    .padding(.top, 8)
            }
            Text(day)
        }
        .textCase(nil)
    }
}
