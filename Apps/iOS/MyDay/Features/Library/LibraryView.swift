import MyDayKit
import MyDayModels
import SwiftUI

/// The Library: entries grouped by month and day, newest first, with their status; pull down to sync. Searching shows
/// the hits instead, with the filters in force as chips.
struct LibraryView: View {
    @State private var viewModel: LibraryViewModel
    @State private var isImporting = false
    @Environment(AppModel.self) private var appModel

    init(viewModel: LibraryViewModel) {
        _viewModel = State(initialValue: viewModel)
    }

    var body: some View {
        let search = viewModel.search
        List {
            if let rows = search.rows {
                SearchResults(search: search, rows: rows, retry: retry)
            } else {
                ForEach(viewModel.months) { month in
                    ForEach(month.days) { day in
                        Section {
                            ForEach(day.rows) { row in
                                LibraryRow(row: row, retry: { retry(row.id) })
                            }
                        } header: {
                            DayHeader(
                                month: day.id == month.days.first?.id ? month.title : nil, day: day.title, date: day.id)
                        }
                    }
                }
            }
        }
        .listStyle(.insetGrouped)
        .overlay {
            if search.showsNoMatches {
                NoMatchesView(text: search.text)
            } else if search.rows == nil && viewModel.isEmpty && viewModel.errorMessage == nil {
                ContentUnavailableView(
                    "No entries yet", systemImage: "book.closed",
                    description: Text("Tap the record button on Home and talk about your day, or choose Type instead."))
            }
        }
        .safeAreaInset(edge: .top) {
            if let message = search.errorMessage ?? viewModel.errorMessage ?? appModel.attentionMessage {
                ErrorBanner(message: message) {
                    Task { await viewModel.tryAgain() }
                }
                .padding(.horizontal)
                .padding(.bottom, 8)
            }
        }
        .searchable(text: Bindable(search).text, prompt: Text("Search your diary"))
        .task(id: search.text) { await search.textChanged() }
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                SearchFiltersMenu(search: search)
            }
            ToolbarItem(placement: .secondaryAction) {
                NavigationLink {
                    RecentlyDeletedView(viewModel: RecentlyDeletedViewModel(core: appModel.core))
                } label: {
                    Label("Recently deleted", systemImage: "trash")
                }
            }
            ToolbarItem(placement: .secondaryAction) {
                Button {
                    isImporting = true
                } label: {
                    Label("Import recordings", systemImage: "square.and.arrow.down")
                }
            }
        }
        .sheet(isPresented: $isImporting) {
            ImportView(viewModel: ImportViewModel(core: appModel.core))
        }
        .refreshable { await viewModel.refreshAndSearch() }
        .task { await viewModel.observe() }
        .navigationTitle("Library")
    }

    private func retry(_ id: UUID) {
        Task { await viewModel.retryAndSearch(id) }
    }
}

/// A day's title, with its month's title above it on the month's first day.
private struct DayHeader: View {
    let month: String?
    let day: String
    /// `YYYY-MM-DD`: the day page it opens.
    let date: String

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            if let month {
                Text(month)
                    .font(.title3.weight(.semibold))
                    .foregroundStyle(.primary)
                    .padding(.top, 8)
            }
            NavigationLink(value: DayLink(date: date)) {
                Text(day)
            }
            .accessibilityHint("Opens the day in your own words.")
        }
        .textCase(nil)
    }
}

/// The hits of a search: the filters in force as chips, the offline notice, one row a hit and "More results".
private struct SearchResults: View {
    let search: LibrarySearchViewModel
    let rows: [LibrarySearchViewModel.Row]
    let retry: (UUID) -> Void

    var body: some View {
        if !search.chips.isEmpty {
            Section {
                SearchChips(search: search)
                    .listRowInsets(EdgeInsets())
                    .listRowBackground(Color.clear)
            }
        }
        if let notice = search.offlineNotice {
            Section {
                Label {
                    Text(notice.localizedForDisplay)
                } icon: {
                    Image(systemName: "wifi.slash")
                        .accessibilityHidden(true)
                }
                .font(.callout)
                .foregroundStyle(.secondary)
            }
        }
        if !rows.isEmpty {
            Section {
                ForEach(rows) { row in
                    SearchResultRow(row: row, retry: { retry(row.id) })
                }
                if search.canLoadMore {
                    Button("More results") {
                        Task { await search.loadMore() }
                    }
                    .frame(minHeight: 44)
                }
            }
        }
    }
}

/// The filters in force ("last week", "#walk", "Recordings"), each a button that takes it away.
private struct SearchChips: View {
    let search: LibrarySearchViewModel

    var body: some View {
        ScrollView(.horizontal, showsIndicators: false) {
            HStack(spacing: 8) {
                ForEach(search.chips) { chip in
                    let label = chip.label.localizedForDisplay
                    Button {
                        Task { await search.remove(chip) }
                    } label: {
                        HStack(spacing: 4) {
                            Text(label)
                            Image(systemName: "xmark")
                                .imageScale(.small)
                        }
                        .frame(minHeight: 32)
                    }
                    .buttonStyle(.bordered)
                    .buttonBorderShape(.capsule)
                    .accessibilityLabel(Text("Remove filter \(label)"))
                }
            }
            .padding(.horizontal, 4)
            .padding(.vertical, 6)
        }
    }
}

/// "No results", naming the words when there are some (a search by filters alone has none).
private struct NoMatchesView: View {
    let text: String

    var body: some View {
        let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if words.isEmpty {
            ContentUnavailableView.search
        } else {
            ContentUnavailableView.search(text: words)
        }
    }
}

/// The toolbar's Filters menu: recordings or typed entries, moods, and clearing them; each change searches again.
private struct SearchFiltersMenu: View {
    let search: LibrarySearchViewModel

    var body: some View {
        Menu {
            Section {
                Toggle("Recordings", isOn: kind(.audio))
                Toggle("Typed", isOn: kind(.text))
            }
            Section("Mood") {
                ForEach(EntryEditDraft.moods, id: \.value) { mood in
                    Toggle(mood.label.localizedForDisplay, isOn: self.mood(mood.value))
                }
            }
            Section {
                Button("Clear filters") {
                    search.filters = SearchFilters()
                    Task { await search.search() }
                }
                .disabled(search.filters.isEmpty)
            }
        } label: {
            Label(
                "Filters",
                systemImage: search.filters.isEmpty
                    ? "line.3.horizontal.decrease.circle" : "line.3.horizontal.decrease.circle.fill")
        }
    }

    private func kind(_ kind: EntryKind) -> Binding<Bool> {
        Binding(get: { search.filters.showsOnly(kind) }, set: { isOn in refilter { $0.show(only: kind, isOn) } })
    }

    private func mood(_ mood: Int) -> Binding<Bool> {
        Binding(get: { search.filters.moods.contains(mood) }, set: { isOn in refilter { $0.show(mood: mood, isOn) } })
    }

    /// The filters change at once, and the search runs again.
    private func refilter(_ change: (inout SearchFilters) -> Void) {
        change(&search.filters)
        Task { await search.search() }
    }
}
