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
