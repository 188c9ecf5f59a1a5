import MyDayKit
import SwiftUI

/// On Home, under the recorder: the entries of the same date a week, a month and years before, each opening its day.
/// Shows nothing until there is something to show.
struct OnThisDayCard: View {
    @Environment(AppModel.self) private var appModel
    @State private var viewModel: OnThisDayViewModel?

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            if let viewModel, !viewModel.memories.isEmpty {
                Text("On this day")
                    .font(.headline)
                    .accessibilityAddTraits(.isHeader)
                ForEach(viewModel.memories) { memory in
                    NavigationLink(value: DayLink(date: memory.date)) {
                        VStack(alignment: .leading, spacing: 2) {
                            Text(memory.heading)
                                .font(.subheadline.weight(.semibold))
                            Text(memory.preview)
                                .font(.subheadline)
                                .foregroundStyle(.secondary)
                                .lineLimit(2)
                        }
                        .frame(maxWidth: .infinity, minHeight: 44, alignment: .leading)
                    }
                    .buttonStyle(.plain)
                    .accessibilityHint("Opens that day.")
                }
            }
        }
        .frame(maxWidth: 360)
        .task {
            let model = viewModel ?? OnThisDayViewModel(core: appModel.core)
            viewModel = model
            await model.load()
        }
    }
}
