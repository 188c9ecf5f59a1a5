import MyDayKit
import SwiftUI

/// On Home, when the person turned it on: one short question about something they said in the last days, in their own
/// words, put away for the day with "Not today".
struct QuestionCard: View {
    @Environment(AppModel.self) private var appModel
    @State private var viewModel: QuestionViewModel?

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            if let viewModel, let question = viewModel.question {
                Text(question.text)
                    .font(.body)
                Button("Not today") { viewModel.dismiss() }
                    .frame(minHeight: 44)
            }
        }
        .frame(maxWidth: 360, alignment: .leading)
        .task {
            let model = viewModel ?? QuestionViewModel(core: appModel.core)
            viewModel = model
            await model.load()
        }
    }
}
