import MyDayKit
import MyDayModels
import SwiftUI

/// One entry: its title and date, the audio, the clean transcript (the original on demand), edits, retry and delete.
struct EntryDetailView: View {
    @State private var viewModel: EntryDetailViewModel
    @State private var isEditing = false
    @State private var isConfirmingDelete = false
    @State private var isConfirmingRetranscribe = false
    @State private var playback: EntryAudioPlayer?
    @Environment(\.dismiss) private var dismiss

    init(viewModel: EntryDetailViewModel) {
        _viewModel = State(initialValue: viewModel)
    }

    var body: some View {
        let entry = viewModel.entry
        ScrollView {
            VStack(alignment: .leading, spacing: 24) {
                EntryHeader(entry: entry, title: viewModel.headerTitle(), meta: viewModel.headerMeta())
                if entry.kind == .audio {
                    AudioPlayerView(viewModel: viewModel, playback: $playback)
                }
                if let reason = viewModel.reviewReason {
                    Label(reason.localizedForDisplay, systemImage: "exclamationmark.bubble")
                        .foregroundStyle(.orange)
                }
                if let follower = viewModel.follower, !viewModel.showsOriginal {
                    FollowedTranscriptView(follower: follower, playback: playback)
                } else {
                    TranscriptView(transcript: viewModel.transcript)
                }
                if viewModel.hasOriginal {
                    Toggle("Show original", isOn: $viewModel.showsOriginal)
                        .accessibilityHint("Shows the words as they were heard, before clean-up.")
                }
                actions
                if let suggestions = viewModel.suggestions {
                    SuggestionsSection(viewModel: viewModel, suggestions: suggestions)
                }
                if let message = viewModel.errorMessage {
                    ErrorBanner(message: message)
                }
                if let saved = viewModel.savedMessage {
                    Label(saved.localizedForDisplay, systemImage: "checkmark.circle")
                        .foregroundStyle(.secondary)
                }
            }
            .padding(20)
            .frame(maxWidth: 640, alignment: .leading)
            .frame(maxWidth: .infinity)
        }
        .navigationBarTitleDisplayMode(.inline)
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                Menu {
                    Button {
                        isEditing = true
                    } label: {
                        Label("Edit title, tags and mood", systemImage: "pencil")
                    }
                    Button(role: .destructive) {
                        isConfirmingDelete = true
                    } label: {
                        Label("Delete entry", systemImage: "trash")
                    }
                    .disabled(viewModel.isWorking)
                } label: {
                    Label("More", systemImage: "ellipsis.circle")
                }
            }
        }
        .sheet(isPresented: $isEditing) {
            EntryEditSheet(entry: entry) { edit in
                Task { await viewModel.save(edit) }
            }
        }
        .confirmationDialog("Delete this entry?", isPresented: $isConfirmingDelete, titleVisibility: .visible) {
            Button("Delete entry", role: .destructive) {
                Task { await viewModel.delete() }
            }
        } message: {
            Text("It waits in Recently deleted, at the Library's menu, for 30 days.")
        }
        .confirmationDialog("Transcribe again?", isPresented: $isConfirmingRetranscribe, titleVisibility: .visible) {
            Button("Replace my edited words", role: .destructive) {
                Task { await viewModel.retranscribe() }
            }
        } message: {
            Text("A fresh transcript of the audio replaces the words you edited.")
        }
        .task { await viewModel.observe() }
        .task(id: entry.serverUpdatedAt) {
            await viewModel.loadWords()
            await viewModel.loadSuggestions()
        }
        .onChange(of: viewModel.isDeleted) { _, isDeleted in
            if isDeleted { dismiss() }
        }
    }

    @ViewBuilder
    private var actions: some View {
        if viewModel.canRetry || viewModel.canRetranscribe {
            HStack(spacing: 12) {
                if viewModel.canRetry {
                    Button("Retry") {
                        Task { await viewModel.retry() }
                    }
                    .buttonStyle(.borderedProminent)
                    .accessibilityHint("Sends this entry to your server again.")
                }
                if viewModel.canRetranscribe {
                    Button("Transcribe again") {
                        if viewModel.retranscribingReplacesEdits {
                            isConfirmingRetranscribe = true
                        } else {
                            Task { await viewModel.retranscribe() }
                        }
                    }
                    .buttonStyle(.bordered)
                    .accessibilityHint("Asks your server for a fresh transcript of the same audio.")
                }
                if viewModel.isWorking {
                    ProgressView()
                }
            }
            .controlSize(.large)
            .disabled(viewModel.isWorking)
        }
    }
}

/// The entry's title (or its day), when it was made in its own time zone, and its length.
private struct EntryHeader: View {
    let entry: LocalEntry
    let title: String
    let meta: String

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(title)
                .font(.title.weight(.semibold))
                .textSelection(.enabled)
            Text(meta)
                .foregroundStyle(.secondary)
            if !entry.tags.isEmpty || entry.mood != nil {
                HStack(spacing: 12) {
                    if !entry.tags.isEmpty {
                        Label(entry.tags.joined(separator: ", "), systemImage: "tag")
                    }
                    if let mood = entry.mood {
                        Label {
                            Text("Mood \(mood) of 5")
                        } icon: {
                            Image(systemName: "face.smiling")
                        }
                    }
                }
                .font(.subheadline)
                .foregroundStyle(.secondary)
            }
        }
        .accessibilityElement(children: .combine)
    }
}
