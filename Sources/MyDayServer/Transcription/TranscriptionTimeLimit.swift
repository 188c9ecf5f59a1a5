import Foundation

/// How long a transcription job may run: a fixed allowance plus a share of its audio's length, so a stuck engine
/// or a pathological file cannot hold a worker slot for ever, while a three-hour recording still has its hours.
struct TranscriptionTimeLimit: Sendable {
    var base: Duration = .seconds(600)
    var perAudioSecond: Duration = .seconds(4)

    func forAudio(seconds: Double) -> Duration { base + perAudioSecond * max(seconds, 0) }
}
