import MyDayKit
import SwiftUI

/// "A question on Home": the gentle question about the last days, off until turned on (on this iPhone).
struct QuestionSection: View {
    @State var viewModel: QuestionViewModel

    var body: some View {
        Section {
            Toggle("Ask me", isOn: $viewModel.isOn)
        } header: {
            Text("A question on Home")
        } footer: {
            Text("Once a day, a short question about something you mentioned in the last three days, in your own words.")
        }
    }
}
