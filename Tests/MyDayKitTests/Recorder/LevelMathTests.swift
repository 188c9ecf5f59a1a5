import Foundation
import MyDayKit
import Testing

@Suite("Level math")
struct LevelMathTests {
    @Test func minusThirtyDecibelsIsHalfwayAboveAMinusSixtyFloor() {
        // Given the RMS of a -30 dBFS signal
        let rms = Float(pow(10, -30.0 / 20))

        // When it is normalised with a -60 dBFS floor
        let level = WaveformLevels.normalisedLevel(rms: rms, floorDecibels: -60)

        // Then it is half a bar
        #expect(abs(level - 0.5) < 0.0001)
    }

    @Test func levelsOutsideTheRangeAreClamped() {
        // Given RMS values below the floor, of silence, above full scale and NaN
        // When they are normalised
        // Then they land in 0…1
        #expect(WaveformLevels.normalisedLevel(rms: 0.0001, floorDecibels: -60) == 0)
        #expect(WaveformLevels.normalisedLevel(rms: 0, floorDecibels: -60) == 0)
        #expect(WaveformLevels.normalisedLevel(rms: 2, floorDecibels: -60) == 1)
        #expect(WaveformLevels.normalisedLevel(rms: .nan, floorDecibels: -60) == 0)
    }

    @Test func plainRMSOfAHalfAmplitudeSine() {
        // Given a sine of amplitude 0.5 over whole periods
        let sine = (0..<480).map { 0.5 * Float(sin(2 * Double.pi * 3 * Double($0) / 480)) }

        // When its RMS is computed with the plain loop
        let rms = sine.withUnsafeBufferPointer { WaveformLevels.rmsPlain($0) }

        // Then it is 0.5/√2
        #expect(abs(rms - 0.353_553) < 0.0001)
    }

    @Test(arguments: [1_024, 1_027, 5])
    func platformRMSAgreesWithThePlainLoop(count: Int) {
        // Given an irregular signal
        let signal: [Float] = (0..<count).map { index in
            let time = Double(index)
            let mixed: Double = 0.6 * sin(time * 0.37) + 0.25 * cos(time * 1.9)
            return Float(mixed)
        }

        // When both RMS implementations run (vDSP on Apple platforms, the eight-lane loop elsewhere),
        // next to the definition computed in Double one sample at a time
        let platform = signal.withUnsafeBufferPointer { WaveformLevels.rms($0) }
        let plain = signal.withUnsafeBufferPointer { WaveformLevels.rmsPlain($0) }
        let definition = (signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(signal.count)).squareRoot()

        // Then all three agree
        #expect(plain > 0.3)
        #expect(abs(Double(plain) - definition) < 0.0001)
        #expect(abs(Double(platform) - definition) < 0.0001)
    }

    @Test func rmsOfAnEmptyBufferIsZero() {
        // Given an empty buffer
        let empty: [Float] = []

        // When its RMS is computed
        // Then both implementations return zero
        #expect(empty.withUnsafeBufferPointer { WaveformLevels.rms($0) } == 0)
        #expect(empty.withUnsafeBufferPointer { WaveformLevels.rmsPlain($0) } == 0)
    }
}
