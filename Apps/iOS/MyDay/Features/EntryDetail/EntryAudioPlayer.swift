import AVFoundation
import Observation

/// Plays one recording with AVPlayer, in AVAudioSession's playback category while it plays.
///
/// The position is not observed: the player screen reads it on a timeline while playing.
@MainActor
@Observable
final class EntryAudioPlayer {
    private(set) var isPlaying = false

    @ObservationIgnored private let player: AVPlayer
    @ObservationIgnored private let expectedDuration: TimeInterval

    /// - Parameter expectedDuration: The entry's length, shown until the file's own is known.
    init(url: URL, expectedDuration: TimeInterval) {
        player = AVPlayer(url: url)
        player.actionAtItemEnd = .pause
        self.expectedDuration = expectedDuration
    }

    /// The file's length once the player knows it, else the entry's; never zero, so it can bound a slider.
    var length: TimeInterval {
        let seconds = player.currentItem?.duration.seconds ?? .nan
        return seconds.isFinite && seconds > 0 ? seconds : max(expectedDuration, 0.1)
    }

    var position: TimeInterval {
        let seconds = player.currentTime().seconds
        return seconds.isFinite ? min(max(seconds, 0), length) : 0
    }

    func togglePlayback() {
        if isPlaying { pause() } else { play() }
    }

    func play() {
        // A recording under way keeps its record-and-play category; playback then shares it.
        if !RecordingControlBridge.isRecording {
            let audio = AVAudioSession.sharedInstance()
            try? audio.setCategory(.playback, mode: .spokenAudio, options: [])
            try? audio.setActive(true)
        }
        if position >= length - 0.05 {
            player.seek(to: .zero)
        }
        player.play()
        isPlaying = true
    }

    func pause() {
        player.pause()
        isPlaying = false
        if !RecordingControlBridge.isRecording {
            try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
        }
    }

    func seek(to seconds: TimeInterval) {
        player.seek(
            to: CMTime(seconds: seconds, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero)
    }

    /// Notices that the player stopped by itself: at the end of the file, or for a call.
    func followPlayer() {
        if isPlaying && player.rate == 0 {
            pause()
        }
    }
}
