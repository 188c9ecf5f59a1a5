import MyDayKit
import MyDaySearch
import SwiftUI

/// One search hit: its day and time, its title and a passage with the matched words marked, and its status; a failed
/// one offers Retry, as in the Library.
struct SearchResultRow: View {
    let row: LibrarySearchViewModel.Row
    let retry: () -> Void

    var body: some View {
        NavigationLink(value: row.id) {
            VStack(alignment: .leading, spacing: 6) {
                Text(row.date)
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
                Text(title)
                    .lineLimit(2)
                if let snippet = row.snippet {
                    Text(snippet.attributed)
                        .font(.subheadline)
                        .foregroundStyle(.secondary)
                        .lineLimit(4)
                }
                if let tags = row.tags {
                    Text(tags.attributed)
                        .font(.subheadline)
                        .foregroundStyle(.secondary)
                }
                if let pill = row.pill {
                    RowPill(pill: pill, retry: retry)
                }
            }
            .padding(.vertical, 6)
            .accessibilityElement(children: .combine)
        }
        .retrySwipe(for: row.pill, retry: retry)
    }

    /// An unmarked title may be MyDayKit's own words ("Voice entry"), shown in the person's language as the Library does.
    private var title: AttributedString {
        row.title.matches.isEmpty ? AttributedString(row.title.text.localizedForDisplay) : row.title.attributed
    }
}
