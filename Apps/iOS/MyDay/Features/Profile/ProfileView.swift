import MyDayKit
import SwiftUI

/// Profile: totals and streak, export of a date range, settings, privacy, sign out and account deletion.
struct ProfileView: View {
    @State private var viewModel: ProfileViewModel
    @State private var exportTask: Task<Void, Never>?
    @State private var isDeletingAccount = false
    @Environment(AppModel.self) private var appModel

    init(viewModel: ProfileViewModel) {
        _viewModel = State(initialValue: viewModel)
    }

    var body: some View {
        Form {
            if let message = viewModel.errorMessage, !isDeletingAccount {
                Section {
                    ErrorBanner(message: message) {
                        Task { await viewModel.load() }
                    }
                }
                .listRowInsets(EdgeInsets())
                .listRowBackground(Color.clear)
            }
            Section("Your diary") {
                if viewModel.stats == nil && viewModel.errorMessage == nil {
                    ProgressView()
                        .frame(maxWidth: .infinity, alignment: .leading)
                } else if viewModel.stats == nil {
                    Text("Your totals will appear when your server can be reached.")
                        .foregroundStyle(.secondary)
                } else {
                    Text(viewModel.totalsText)
                    Text(viewModel.streakText)
                    NavigationLink(value: RootView.Destination.insights) {
                        Label("Insights", systemImage: "chart.bar.xaxis")
                    }
                    if !viewModel.storageText.isEmpty {
                        Text(viewModel.storageText)
                            .foregroundStyle(.secondary)
                    }
                }
            }
            if !viewModel.emailStatusText.isEmpty {
                Section("Your email address") {
                    Text(viewModel.emailStatusText.localizedForDisplay)
                        .foregroundStyle(.secondary)
                    Button("Send the link again") {
                        Task { await viewModel.resendVerification() }
                    }
                    if let notice = viewModel.verificationNotice {
                        Text(notice.localizedForDisplay)
                    }
                }
            }
            ExportSection(viewModel: viewModel, appModel: appModel, startExport: startExport) {
                Task { await viewModel.deleteExport() }
            }
            ReminderSection(viewModel: ReminderViewModel(core: appModel.core, planNotifications: ReminderNotifications.plan))
            QuestionSection(viewModel: QuestionViewModel(core: appModel.core))
            VocabularySection(viewModel: VocabularyViewModel(core: appModel.core))
            SignInMethodsSection(viewModel: viewModel)
            ChangeEmailSection(viewModel: viewModel)
            SettingsSection(settings: appModel.settings)
            Section("Privacy") {
                Text(
                    """
                    Your recordings and transcripts live on your own My Day server and on this iPhone. \
                    Whoever runs the server chooses how it transcribes and tidies them.
                    """
                )
                .font(.callout)
                .foregroundStyle(.secondary)
            }
            accountSection
        }
        .navigationTitle("Profile")
        .task { await viewModel.load() }
        .refreshable { await viewModel.load() }
        .onDisappear { exportTask?.cancel() }
        .onChange(of: viewModel.isSignedOut) { _, isSignedOut in
            if isSignedOut { appModel.didSignOut() }
        }
        .confirmationDialog("Sign out anyway?", isPresented: $viewModel.isOfferingDiscard, titleVisibility: .visible) {
            Button("Sign out and discard \(viewModel.unsentOnSignOut) unsent changes", role: .destructive) {
                guard !appModel.isRecording else { return }
                Task { await viewModel.signOut(discardingUnsent: true) }
            }
        } message: {
            Text((viewModel.errorMessage ?? "").localizedForDisplay)
        }
        .sheet(isPresented: $isDeletingAccount) {
            DeleteAccountSheet(viewModel: viewModel, appModel: appModel)
        }
    }

    /// Sign out and account deletion, both refused while a recording is under way: they would discard its audio.
    private var accountSection: some View {
        Section {
            Button {
                guard !appModel.isRecording else { return }
                Task { await viewModel.signOutOrOfferDiscard() }
            } label: {
                HStack {
                    Text("Sign out")
                    if viewModel.isSigningOut {
                        Spacer()
                        ProgressView()
                    }
                }
            }
            .disabled(viewModel.isSigningOut || appModel.isRecording)
            .accessibilityHint("Entries that have not reached your server yet keep you signed in until they do.")
            Button("Delete Account and Data", role: .destructive) {
                isDeletingAccount = true
            }
            .disabled(appModel.isRecording)
            .accessibilityHint("Explains what is deleted and asks you to confirm.")
        } header: {
            Text("Account")
        } footer: {
            if appModel.isRecording {
                Text("Stop the recording under way first: signing out or deleting your account now would lose it.")
            }
        }
    }

    /// Asks for the export; `proof` is a fresh Apple or Google sign-in when the server wanted one.
    private func startExport(proof: SignInProof?) {
        exportTask?.cancel()
        exportTask = Task { await viewModel.startExport(proof: proof) }
    }
}
