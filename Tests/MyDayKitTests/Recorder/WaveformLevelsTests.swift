import Foundation
import MyDayKit
import Testing

@Suite("WaveformLevels")
struct WaveformLevelsTests {
    @Test func silenceGivesAnEmptyBar() {
        // Given a waveform whose newest bar is full
        var levels = WaveformLevels()
        levels.append(level: 1)

        // When a silent buffer arrives
        levels.append(samples: [Float](repeating: 0, count: 512))

        // Then the newest bar is empty and the full one moved back by one
        #expect(levels.bars.last == 0)
        #expect(levels.bars[levels.bars.count - 2] == 1)
    }

    @Test func fullScaleSquareWaveGivesAFullBar() {
        // Given a waveform
        var levels = WaveformLevels()
        let square = (0..<512).map { $0.isMultiple(of: 2) ? Float(1) : -1 }

        // When a full-scale square wave arrives
        levels.append(samples: square)

        // Then the newest bar is full
        #expect(levels.bars.last == 1)
    }

    @Test func sineAtHalfAmplitudeMatchesTheDecibelFormula() throws {
        // Given a sine of amplitude 0.5 over whole periods
        let sampleCount = 480
        let sine = (0..<sampleCount).map { 0.5 * Float(sin(2 * Double.pi * 5 * Double($0) / Double(sampleCount))) }
        var levels = WaveformLevels(floorDecibels: -60)

        // When its level is appended
        levels.append(samples: sine)

        // Then the level is 20·log10(0.5/√2) mapped linearly from -60…0 dBFS to 0…1
        let expectedRMS = 0.5 / Float(2).squareRoot()
        let expectedLevel = (20 * log10(expectedRMS) + 60) / 60
        let level = try #require(levels.bars.last)
        #expect(abs(level - expectedLevel) < 0.0005)
        #expect(abs(expectedLevel - 0.8495) < 0.0005)
    }

    @Test func emptyBufferCountsAsSilence() {
        // Given a waveform whose newest bar is full
        var levels = WaveformLevels()
        levels.append(level: 1)

        // When an empty buffer arrives
        levels.append(samples: [])

        // Then a zero bar is added, not NaN
        #expect(levels.bars.last == 0)
        #expect(levels.bars.allSatisfy { !$0.isNaN })
    }

    @Test func ringKeepsTheNewestValuesOldestFirst() {
        // Given a waveform of 48 bars
        var levels = WaveformLevels(barCount: 48)

        // When 53 levels arrive
        let appended = (1...53).map { Float($0) / 100 }
        for level in appended {
            levels.append(level: level)
        }

        // Then the bars are the newest 48, oldest first
        #expect(levels.bars == Array(appended.suffix(48)))
    }

    @Test(arguments: [48, 56, 64])
    func barCountIsFixed(barCount: Int) {
        // Given a fresh waveform
        var levels = WaveformLevels(barCount: barCount)

        // Then it has barCount zero bars before any level arrives
        #expect(levels.bars == [Float](repeating: 0, count: barCount))

        // When fewer levels than bars arrive
        levels.append(level: 0.7)
        levels.append(level: 0.2)

        // Then the count is unchanged and the new levels are last
        #expect(levels.bars.count == barCount)
        #expect(levels.bars.suffix(2) == [0.7, 0.2])
    }

    @Test func appendedLevelsAreClampedAndNaNIsSilence() {
        // Given a waveform
        var levels = WaveformLevels()

        // When out-of-range levels arrive
        levels.append(level: 1.5)
        levels.append(level: -0.2)
        levels.append(level: .nan)

        // Then they are clamped to 0…1
        #expect(levels.bars.suffix(3) == [1, 0, 0])
    }

    @Test func resetFlattensTheWaveform() {
        // Given a waveform with levels
        var levels = WaveformLevels()
        levels.append(level: 0.4)
        levels.append(level: 0.9)

        // When it is reset
        levels.reset()

        // Then all bars are zero and new levels start at the end again
        #expect(levels.bars.allSatisfy { $0 == 0 })
        levels.append(level: 0.3)
        #expect(levels.bars.last == 0.3)
        #expect(levels.bars.dropLast().allSatisfy { $0 == 0 })
    }
}
