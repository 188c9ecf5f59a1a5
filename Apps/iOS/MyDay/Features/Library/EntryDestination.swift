import MyDayKit
import SwiftUI

/// The detail screen of the entry a Library row opened, read from this device's diary.
struct EntryDestination: View {
    let id: UUID

    @Environment(AppModel.self) private var appModel

    var body: some View {
        if let entry = try? appModel.core.store.entry(id) {
            EntryDetailView(viewModel: EntryDetailViewModel(entry: entry, core: appModel.core))
        } else {
            ContentUnavailableView("This entry is no longer here", systemImage: "doc.questionmark")
        }
    }
}
