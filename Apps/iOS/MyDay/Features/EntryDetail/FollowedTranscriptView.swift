import MyDayKit
import SwiftUI

/// The transcript as words that follow the audio: while it plays, the word being said is marked and kept in view;
/// tapping a word plays from it; words the recognizer was unsure of are underlined with dots.
struct FollowedTranscriptView: View {
    let follower: TranscriptFollower
    let playback: EntryAudioPlayer?

    var body: some View {
        TimelineView(.animation(minimumInterval: 0.2, paused: !(playback?.isPlaying ?? false))) { _ in
            let current = playback.flatMap { follower.currentWord(at: $0.position) }
            ScrollViewReader { reader in
                WordFlow(spacing: 4, lineSpacing: 6) {
                    ForEach(follower.words.indices, id: \.self) { index in
                        word(index, isCurrent: index == current)
                            .id(index)
                    }
                }
                .onChange(of: current) { _, now in
                    guard let now, playback?.isPlaying == true else { return }
                    withAnimation { reader.scrollTo(now, anchor: .center) }
                }
            }
        }
        .accessibilityElement(children: .contain)
    }

    private func word(_ index: Int, isCurrent: Bool) -> some View {
        let unsure = follower.isUnsure(index)
        return Text(follower.words[index].text)
            .font(.body)
            .underline(unsure, pattern: .dot, color: .secondary)
            .padding(.horizontal, 2)
            .background(isCurrent ? Color.accentColor.opacity(0.25) : .clear, in: RoundedRectangle(cornerRadius: 4))
            .onTapGesture {
                guard let playback else { return }
                playback.seek(to: follower.playbackStart(forWordAt: index))
                if !playback.isPlaying { playback.play() }
            }
            .accessibilityAddTraits(playback == nil ? [] : .isButton)
            .accessibilityHint(
                unsure ? Text("The recognizer was unsure of this word. Plays from here.") : Text("Plays from here."))
    }
}

/// Lays its children out like words in a paragraph: left to right, wrapping onto the next line.
private struct WordFlow: Layout {
    let spacing: CGFloat
    let lineSpacing: CGFloat

    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
        let rows = arrange(subviews, width: proposal.width ?? .infinity)
        return CGSize(
            width: proposal.width ?? rows.map(\.width).max() ?? 0,
            height: rows.map(\.height).reduce(0, +) + lineSpacing * CGFloat(max(rows.count - 1, 0)))
    }

    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
        var y = bounds.minY
        for row in arrange(subviews, width: bounds.width) {
            var x = bounds.minX
            for index in row.indices {
                let size = subviews[index].sizeThatFits(.unspecified)
                subviews[index].place(at: CGPoint(x: x, y: y), proposal: ProposedViewSize(size))
                x += size.width + spacing
            }
            y += row.height + lineSpacing
        }
    }

    private struct Row {
        var indices: [Int] = []
        var width: CGFloat = 0
        var height: CGFloat = 0
    }

    private func arrange(_ subviews: Subviews, width: CGFloat) -> [Row] {
        var rows: [Row] = [Row()]
        for index in subviews.indices {
            let size = subviews[index].sizeThatFits(.unspecified)
            if !rows[rows.count - 1].indices.isEmpty, rows[rows.count - 1].width + spacing + size.width > width {
                rows.append(Row())
            }
            var row = rows[rows.count - 1]
            row.width += (row.indices.isEmpty ? 0 : spacing) + size.width
            row.height = max(row.height, size.height)
            row.indices.append(index)
            rows[rows.count - 1] = row
        }
        return rows
    }
}
