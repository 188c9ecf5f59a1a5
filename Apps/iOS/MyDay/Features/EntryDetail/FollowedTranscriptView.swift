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
        WordWrap.size(of: lines(subviews, width: proposal.width ?? .infinity), width: proposal.width, lineSpacing: lineSpacing)
    }

    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
        for line in lines(subviews, width: bounds.width) {
            for word in line.words {
                let subview = subviews[word.index]
                subview.place(
                    at: CGPoint(x: bounds.minX + word.origin.x, y: bounds.minY + word.origin.y),
                    proposal: ProposedViewSize(subview.sizeThatFits(.unspecified)))
            }
        }
    }

    private func lines(_ subviews: Subviews, width: CGFloat) -> [WordWrap.Line] {
        WordWrap.lines(
            of: subviews.map { $0.sizeThatFits(.unspecified) }, width: width, spacing: spacing, lineSpacing: lineSpacing)
    }
}
