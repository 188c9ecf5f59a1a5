import Charts
import MyDayKit
import SwiftUI

/// Insights of the last year: streaks, a calendar of days with entries, minutes per week, mood over time and the
/// names and topics mentioned most (each opens a search). Every mark carries its figures for VoiceOver.
struct InsightsView: View {
    @State var viewModel: InsightsViewModel

    var body: some View {
        List {
            if let message = viewModel.errorMessage {
                ErrorBanner(message: message) { Task { await viewModel.load() } }
            }
            if let insights = viewModel.insights {
                Section {
                    Text(viewModel.streakSummary)
                }
                Section("Days with entries") {
                    CalendarChart(columns: viewModel.calendar)
                    Text("A larger square is a day with more entries.")
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                }
                Section("Minutes recorded per week") {
                    Chart(viewModel.weeks) { week in
                        BarMark(x: .value("Week", week.monday), y: .value("Minutes", week.minutes))
                            .accessibilityLabel("Week of \(week.monday)")
                            .accessibilityValue("\(Int(week.minutes.rounded())) minutes")
                    }
                    .chartXAxis(.hidden)
                    .frame(height: 140)
                }
                Section("Mood over time") {
                    if viewModel.moods.isEmpty {
                        Text("No mood set yet: give an entry a mood and it shows here.")
                            .foregroundStyle(.secondary)
                    } else {
                        Chart(viewModel.moods, id: \.date) { point in
                            LineMark(x: .value("Day", point.date), y: .value("Mood", point.mood))
                            PointMark(x: .value("Day", point.date), y: .value("Mood", point.mood))
                                .accessibilityLabel(point.date)
                                .accessibilityValue("Mood \(point.mood) of 5")
                        }
                        .chartYScale(domain: 1...5)
                        .chartXAxis(.hidden)
                        .frame(height: 140)
                    }
                }
                mentions("People", insights.people)
                mentions("Places", insights.places)
                mentions("Topics", insights.topics)
            } else if viewModel.errorMessage == nil {
                ProgressView()
            }
        }
        .navigationTitle("Insights")
        .task { await viewModel.load() }
        .refreshable { await viewModel.load() }
    }

    @ViewBuilder
    private func mentions(_ title: String, _ list: [Insights.Mention]) -> some View {
        if !list.isEmpty {
            Section(title) {
                ForEach(list, id: \.text) { mention in
                    NavigationLink(value: RootView.Destination.search(mention.text)) {
                        LabeledContent(mention.text, value: "\(mention.count)")
                    }
                    .accessibilityLabel("\(mention.text), in \(mention.count) entries")
                    .accessibilityHint("Searches your diary for it.")
                }
            }
        }
    }
}

/// Weeks side by side, Monday on top; each day a square whose size grows with its entries, newest weeks in view.
private struct CalendarChart: View {
    let columns: [[InsightsViewModel.CalendarDay]]

    var body: some View {
        ScrollViewReader { scroller in
            ScrollView(.horizontal, showsIndicators: false) {
                HStack(alignment: .top, spacing: 3) {
                    ForEach(Array(columns.enumerated()), id: \.offset) { index, column in
                        VStack(spacing: 3) {
                            ForEach(column) { day in
                                ZStack {
                                    RoundedRectangle(cornerRadius: 2).stroke(.quaternary)
                                    if day.level > 0 {
                                        RoundedRectangle(cornerRadius: 1)
                                            .fill(.tint)
                                            .padding(CGFloat(3 - day.level) * 1.5)
                                    }
                                }
                                .frame(width: 11, height: 11)
                                .accessibilityElement()
                                .accessibilityLabel(day.accessibilityLabel)
                            }
                        }
                        .id(index)
                    }
                }
                .padding(.vertical, 4)
            }
            .onAppear { scroller.scrollTo(columns.count - 1, anchor: .trailing) }
        }
    }
}
