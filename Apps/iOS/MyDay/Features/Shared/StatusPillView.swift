import MyDayKit
import SwiftUI

/// The small capsule beside an entry that is not readable yet (uploading, transcribing, failed) or whose words may
/// be wrong.
struct StatusPillView: View {
    let pill: StatusPill

    var body: some View {
        Text(pill.text.localizedForDisplay)
            .font(.caption.weight(.medium))
            .foregroundStyle(foreground)
            .padding(.horizontal, 10)
            .padding(.vertical, 4)
            .background(background, in: Capsule())
    }

    private var foreground: Color {
        switch pill {
        case .waiting, .uploading, .transcribing: .secondary
        case .failed: .red
        case .needsReview: .orange
        }
    }

    private var background: Color {
        switch pill {
        case .waiting, .uploading, .transcribing: Color(uiColor: .tertiarySystemFill)
        case .failed: Color.red.opacity(0.12)
        case .needsReview: Color.orange.opacity(0.15)
        }
    }
}

/// A row's pill: for a failed entry, a Retry button ("Failed — tap to retry").
struct RowPill: View {
    let pill: StatusPill
    let retry: () -> Void

    var body: some View {
        if pill == .failed {
            Button(action: retry) {
                StatusPillView(pill: pill)
                    .frame(minHeight: 44)
                    .contentShape(Rectangle())
            }
            .buttonStyle(.borderless)
            .accessibilityHint("Sends this entry to your server again.")
        } else {
            StatusPillView(pill: pill)
        }
    }
}

extension View {
    /// A swipe that retries the row's entry when it failed.
    func retrySwipe(for pill: StatusPill?, retry: @escaping () -> Void) -> some View {
        swipeActions(edge: .trailing) {
            if pill == .failed {
                Button("Retry", action: retry)
                    .tint(.accentColor)
            }
        }
    }
}
