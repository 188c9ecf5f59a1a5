import MyDayKit
import SwiftUI

/// The live waveform: the recorder's recent levels as rounded bars, redrawn every frame while recording.
///
/// With Reduce Motion on, the bars change once a second instead of flowing.
struct WaveformView: View {
    let recorder: Recorder

    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @State private var calmBars: [Float] = []

    var body: some View {
        let isRecording = recorder.state == .recording
        let colour = isRecording ? Color.accentColor : Color.secondary
        TimelineView(.animation(minimumInterval: reduceMotion ? 1 : nil, paused: !isRecording)) { timeline in
            let bars = reduceMotion ? calmBars : recorder.levels.bars
            Canvas { context, size in
                Self.draw(bars, in: &context, size: size, colour: colour)
            }
            .onChange(of: timeline.date) {
                if reduceMotion { calmBars = recorder.levels.bars }
            }
        }
        .accessibilityHidden(true)
    }

    private nonisolated static func draw(_ bars: [Float], in context: inout GraphicsContext, size: CGSize, colour: Color) {
        guard !bars.isEmpty, size.width > 0 else { return }
        let slot = size.width / CGFloat(bars.count)
        let barWidth = max(slot * 0.6, 1)
        for (index, level) in bars.enumerated() {
            let height = max(CGFloat(level) * size.height, barWidth)
            let bar = CGRect(
                x: CGFloat(index) * slot + (slot - barWidth) / 2, y: (size.height - height) / 2,
                width: barWidth, height: height)
            context.fill(Path(roundedRect: bar, cornerRadius: barWidth / 2), with: .color(colour))
        }
    }
}
