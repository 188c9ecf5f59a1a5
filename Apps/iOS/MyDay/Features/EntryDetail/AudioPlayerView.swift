import MyDayKit
import SwiftUI

/// The entry's audio: fetched (from this iPhone, else a signed link from the server), then play, pause and seek.
struct AudioPlayerView: View {
    let viewModel: EntryDetailViewModel
    /// The player, shared with the transcript that follows it.
    @Binding var playback: EntryAudioPlayer?
    @State private var isLoading = true

    var body: some View {
        Group {
            if let playback {
                PlaybackControls(playback: playback)
            } else if isLoading {
                HStack(spacing: 12) {
                    ProgressView()
                    Text("Loading the audio…")
                }
                .foregroundStyle(.secondary)
                .frame(maxWidth: .infinity, minHeight: 44, alignment: .leading)
            } else {
                Label("The audio cannot be played right now.", systemImage: "speaker.slash")
                    .foregroundStyle(.secondary)
                    .frame(maxWidth: .infinity, minHeight: 44, alignment: .leading)
            }
        }
        .padding(16)
        .background(Color(uiColor: .secondarySystemBackground), in: RoundedRectangle(cornerRadius: 16, style: .continuous))
        .task {
            guard playback == nil else { return }
            if let url = await viewModel.playbackURL() {
                playback = EntryAudioPlayer(url: url, expectedDuration: viewModel.entry.duration)
            }
            isLoading = false
        }
        .onDisappear { playback?.pause() }
    }
}

/// Play and pause, a slider to seek, and the position and length in monospaced digits.
private struct PlaybackControls: View {
    let playback: EntryAudioPlayer

    /// Follows the player while it plays; the person's finger while dragging, and the player seeks on release.
    @State private var sliderPosition: TimeInterval = 0
    @State private var isDragging = false

    var body: some View {
        TimelineView(.animation(minimumInterval: 0.25, paused: !playback.isPlaying)) { timeline in
            HStack(spacing: 16) {
                Button {
                    playback.togglePlayback()
                } label: {
                    Image(systemName: playback.isPlaying ? "pause.circle.fill" : "play.circle.fill")
                        .font(.largeTitle)
                        .frame(minWidth: 44, minHeight: 44)
                }
                .buttonStyle(.borderless)
                .accessibilityLabel(playback.isPlaying ? Text("Pause") : Text("Play"))
                VStack(spacing: 4) {
                    Slider(value: $sliderPosition, in: 0...playback.length) { editing in
                        isDragging = editing
                        if !editing { playback.seek(to: sliderPosition) }
                    }
                    .accessibilityLabel("Position")
                    .accessibilityValue(Text(formattedDuration(sliderPosition)))
                    .accessibilityAdjustableAction(skip)
                    HStack {
                        Text(formattedDuration(sliderPosition))
                        Spacer()
                        Text(formattedDuration(playback.length))
                    }
                    .font(.caption.monospacedDigit())
                    .foregroundStyle(.secondary)
                    .accessibilityHidden(true)
                }
            }
            .onChange(of: timeline.date) {
                playback.followPlayer()
                if !isDragging { sliderPosition = playback.position }
            }
        }
        .onChange(of: playback.isPlaying) {
            if !isDragging { sliderPosition = playback.position }
        }
    }

    /// VoiceOver's swipe up and down: ten seconds on or back.
    private func skip(_ direction: AccessibilityAdjustmentDirection) {
        let step: TimeInterval = direction == .increment ? 10 : -10
        sliderPosition = min(max(sliderPosition + step, 0), playback.length)
        playback.seek(to: sliderPosition)
    }
}
