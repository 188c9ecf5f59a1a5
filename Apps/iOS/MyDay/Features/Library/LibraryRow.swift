import MyDayKit
import SwiftUI

/// One entry in the Library: its time, words, length and status; a failed one offers Retry.
struct LibraryRow: View {
    let row: LibraryViewModel.Row
    let retry: () -> Void

    var body: some View {
        NavigationLink(value: row.id) {
            HStack(alignment: .firstTextBaseline, spacing: 12) {
                Text(row.time)
                    .monospacedDigit()
                    .foregroundStyle(.secondary)
                VStack(alignment: .leading, spacing: 6) {
                    Text(row.title.localizedForDisplay)
                        .lineLimit(2)
                    if let details = row.details {
                        Text(details)
                            .font(.subheadline)
                            .foregroundStyle(.secondary)
                    }
                    if let pill = row.pill {
                        RowPill(pill: pill, retry: retry)
                    }
                }
                Spacer(minLength: 8)
                if let duration = row.duration {
                    Text(duration)
                        .monospacedDigit()
                        .foregroundStyle(.secondary)
                        .accessibilityLabel(Text("Length \(duration)"))
                }
            }
            .padding(.vertical, 6)
        }
        .retrySwipe(for: row.pill, retry: retry)
    }
}
