import MyDayKit
import SwiftUI

/// Shown instead of the app when the diary could not be opened at launch: what is wrong, what to do, and Try again.
struct DiaryUnavailableView: View {
    let problem: DiaryUnavailable
    let tryAgain: () -> Void

    var body: some View {
        ContentUnavailableView {
            Label(problem.title.localizedForDisplay, systemImage: "exclamationmark.triangle")
        } description: {
            Text(problem.message.localizedForDisplay)
        } actions: {
            Button("Try again", action: tryAgain)
                .buttonStyle(.borderedProminent)
        }
    }
}
