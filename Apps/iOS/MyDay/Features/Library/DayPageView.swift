import MyDayKit
import SwiftUI

/// What a Library day header opens.
struct DayLink: Hashable {
    /// `YYYY-MM-DD`.
    let date: String
}

/// One day: its digest in its own words (a recorded sentence plays from where it was said), tags and mood, entries.
struct DayPageView: View {
    @State var viewModel: DayViewModel
    @State private var playback: EntryAudioPlayer?
    @State private var playing: UUID?

    var body: some View {
        List {
            if let message = viewModel.errorMessage {
                ErrorBanner(message: message) { Task { await viewModel.load() } }
            }
            if let page = viewModel.page {
                Section {
                    Text(viewModel.summary)
                        .foregroundStyle(.secondary)
                }
                if !page.digest.isEmpty {
                    Section("The day in your words") {
                        ForEach(page.digest, id: \.text) { sentence in
                            sentenceRow(sentence)
                        }
                    }
                }
                Section("Entries") {
                    ForEach(viewModel.entryLines) { line in
                        NavigationLink(value: line.id) {
                            VStack(alignment: .leading, spacing: 4) {
                                Text(line.time)
                                    .font(.caption)
                                    .foregroundStyle(.secondary)
                                Text(line.title.localizedForDisplay)
                                    .lineLimit(2)
                            }
                        }
                    }
                }
            } else if viewModel.errorMessage == nil {
                ProgressView()
            }
        }
        .navigationTitle(viewModel.title)
        .navigationBarTitleDisplayMode(.inline)
        .task { await viewModel.load() }
        .refreshable { await viewModel.load() }
        .onDisappear { playback?.pause() }
    }

    @ViewBuilder
    private func sentenceRow(_ sentence: DayPage.Sentence) -> some View {
        let quote = Text(sentence.byModel ? sentence.text : "“\(sentence.text)”").font(.body)
        if let place = viewModel.playback(of: sentence) {
            Button {
                Task { await play(place.entryID, from: place.start) }
            } label: {
                Label {
                    quote
                } icon: {
                    Image(systemName: playing == place.entryID && playback?.isPlaying == true ? "speaker.wave.2" : "play.circle")
                }
            }
            .accessibilityHint("Plays the recording from this sentence.")
        } else {
            quote
        }
    }

    private func play(_ entryID: UUID, from start: Double) async {
        if playing != entryID {
            playback?.pause()
            guard let url = await viewModel.audioURL(of: entryID) else { return }
            playback = EntryAudioPlayer(url: url, expectedDuration: 0)
            playing = entryID
        }
        playback?.seek(to: start)
        playback?.play()
    }
}
