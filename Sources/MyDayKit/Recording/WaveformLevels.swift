import Foundation

/// The most recent input levels (0…1) for a live waveform: a fixed-size ring buffer that never allocates on append.
public struct WaveformLevels: Sendable, Equatable {
    public static let allowedBarCounts = 48...64

    public let barCount: Int
    /// The dBFS value drawn as an empty bar; 0 dBFS is a full bar.
    public let floorDecibels: Float

    private var storage: [Float]
    private var nextIndex = 0

    public init(barCount: Int = 56, floorDecibels: Float = -60) {
        precondition(Self.allowedBarCounts.contains(barCount), "barCount must be in \(Self.allowedBarCounts)")
        precondition(floorDecibels < 0, "floorDecibels must be below 0 dBFS")
        self.barCount = barCount
        self.floorDecibels = floorDecibels
        storage = Array(repeating: 0, count: barCount)
    }

    /// The levels oldest first; always exactly `barCount` values, zeros until enough levels arrived.
    public var bars: [Float] {
        var ordered: [Float] = []
        ordered.reserveCapacity(barCount)
        ordered.append(contentsOf: storage[nextIndex...])
        ordered.append(contentsOf: storage[..<nextIndex])
        return ordered
    }

    /// Appends a level that is already normalised; values outside 0…1 are clamped and NaN counts as silence.
    public mutating func append(level: Float) {
        storage[nextIndex] = level.isNaN ? 0 : min(max(level, 0), 1)
        nextIndex += 1
        if nextIndex == barCount {
            nextIndex = 0
        }
    }

    /// Appends the level of a buffer whose RMS amplitude is already known.
    public mutating func append(rms: Float) {
        append(level: Self.normalisedLevel(rms: rms, floorDecibels: floorDecibels))
    }

    /// Appends the level of one PCM buffer; an empty buffer counts as silence.
    public mutating func append(samples: UnsafeBufferPointer<Float>) {
        append(rms: Self.rms(samples))
    }

    public mutating func append(samples: [Float]) {
        samples.withUnsafeBufferPointer { append(samples: $0) }
    }

    /// Forgets all levels, back to a flat line.
    public mutating func reset() {
        for index in storage.indices {
            storage[index] = 0
        }
        nextIndex = 0
    }
}
