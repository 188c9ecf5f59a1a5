import MyDayKit
import Testing

@Suite struct RecorderStateDisplayTests {
    @Test func theButtonAndTheHandFollowTheRecording() {
        // The button pauses while recording and resumes while paused or interrupted
        #expect(RecorderState.recording.buttonSymbol == "pause.fill")
        #expect(RecorderState.interrupted.buttonSymbol == "play.fill" && RecorderState.paused.buttonSymbol == "play.fill")
        #expect(RecorderState.idle.buttonSymbol == "mic.fill" && RecorderState.failed("x").buttonSymbol == "mic.fill")
        // Starting is firm; pausing, an interruption and resuming are light; saving and failing say how it ended
        #expect(RecorderState.recording.haptic(from: .idle) == .firm)
        #expect(RecorderState.interrupted.haptic(from: .recording) == .light)
        #expect(RecorderState.recording.haptic(from: .paused) == .light)
        #expect(RecorderState.failed("The microphone went away.").haptic(from: .recording) == .error)
        #expect(RecorderState.stopping.haptic(from: .recording) == nil)
        #expect(RecorderState.failed("x").isFailed && !RecorderState.stopping.isFailed)
    }
}
