import MyDayKit
import SwiftUI

/// The app's one window: the sign-in screen, or Home with the Library and Profile in its top corners.
struct RootView: View {
    @Environment(AppModel.self) private var appModel
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        Group {
            switch appModel.phase {
            case .signedOut:
                SignInView()
                    .safeAreaInset(edge: .bottom) {
                        // A recording the Record control started while signed out, kept for its owner.
                        if let home = appModel.signedOutRecording, let bar = home.recordingBar {
                            RecordingBarView(viewModel: home, bar: bar, openHome: {})
                                .padding(.horizontal)
                        }
                    }
            case .signedIn:
                SignedInRoot()
            }
        }
        .alert(
            (appModel.mailedLinkOutcome?.title ?? "").localizedForDisplay,
            isPresented: Binding(
                get: { appModel.mailedLinkOutcome?.message != nil }, set: { if !$0 { appModel.mailedLinkOutcome = nil } })
        ) {
            Button("OK") { appModel.mailedLinkOutcome = nil }
        } message: {
            Text((appModel.mailedLinkOutcome?.message ?? "").localizedForDisplay)
        }
        .sheet(
            isPresented: Binding(
                get: { appModel.mailedLinkOutcome?.passwordToken != nil }, set: { if !$0 { appModel.mailedLinkOutcome = nil } })
        ) {
            PasswordRecoverySheet(email: "", token: appModel.mailedLinkOutcome?.passwordToken ?? "")
        }
        .sheet(
            isPresented: Binding(
                get: { appModel.phase == .signedIn && !appModel.sharedFiles.isEmpty },
                set: { if !$0 { appModel.sharedFiles = [] } })
        ) {
            ImportView(viewModel: ImportViewModel(core: appModel.core), shared: appModel.sharedFiles)
        }
        .overlay {
            let lock = appModel.settings.lock
            if lock.isLocked {
                LockView(lock: lock)
            } else if lock.isEnabled && scenePhase != .active {
                PrivacyCover()
            }
        }
    }
}

extension RootView {
    /// The screens the corners of Home open, and the ones Profile and Insights open on the same stack.
    enum Destination: Hashable {
        case library
        case profile
        case insights
        /// The Library searching for a name or topic.
        case search(String)
    }
}

/// Home inside the navigation stack that the Library and Profile are pushed onto.
private struct SignedInRoot: View {
    typealias Destination = RootView.Destination

    @Environment(AppModel.self) private var appModel
    @State private var path = NavigationPath()

    var body: some View {
        let home = appModel.makeHomeViewModel()
        NavigationStack(path: $path) {
            HomeView(viewModel: home)
                .toolbar {
                    ToolbarItem(placement: .topBarLeading) {
                        NavigationLink(value: Destination.library) {
                            Label("Library", systemImage: "books.vertical")
                        }
                        .accessibilityHint("Your entries, by day.")
                    }
                    ToolbarItem(placement: .topBarTrailing) {
                        NavigationLink(value: Destination.profile) {
                            Label("Profile", systemImage: "person.crop.circle")
                        }
                        .accessibilityHint("Totals, export, settings and your account.")
                    }
                }
                .navigationDestination(for: Destination.self) { destination in
                    switch destination {
                    case .library:
                        LibraryView(viewModel: appModel.makeLibraryViewModel())
                    case .profile:
                        ProfileView(viewModel: ProfileViewModel(core: appModel.core))
                    case .insights:
                        InsightsView(viewModel: InsightsViewModel(core: appModel.core))
                    case .search(let text):
                        LibraryView(viewModel: appModel.makeLibraryViewModel(searching: text))
                    }
                }
                // Declared once, at the root: Home (On this day), the Library and Insights all open days and entries.
                .navigationDestination(for: DayLink.self) { link in
                    DayPageView(viewModel: DayViewModel(date: link.date, core: appModel.core))
                }
                .navigationDestination(for: UUID.self) { id in
                    EntryDestination(id: id)
                }
        }
        .modifier(RecorderObservers(viewModel: home))
        // Away from Home, a recording under way shows in a bar with its time, pause and stop.
        .safeAreaInset(edge: .bottom, spacing: 0) {
            if !path.isEmpty, let bar = home.recordingBar {
                RecordingBarView(viewModel: home, bar: bar) { path = NavigationPath() }
            }
        }
    }
}
