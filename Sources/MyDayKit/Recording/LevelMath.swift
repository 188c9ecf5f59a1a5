import Foundation

#if canImport(Accelerate)
    import Accelerate
#endif

extension WaveformLevels {
    /// The root mean square of the samples (0 for an empty buffer); uses vDSP where Accelerate exists.
    public static func rms(_ samples: UnsafeBufferPointer<Float>) -> Float {
        #if canImport(Accelerate)
            guard let base = samples.baseAddress, !samples.isEmpty else {
                return 0
            }
            var result: Float = 0
            vDSP_rmsqv(base, 1, &result, vDSP_Length(samples.count))
            return result
        #else
            return rmsPlain(samples)
        #endif
    }

    /// The root mean square computed without Accelerate, available on every platform.
    ///
    /// Sums squares in eight lanes at once (a plain loop cannot be vectorised, because it fixes the
    /// order of the additions), then the remaining samples one by one.
    public static func rmsPlain(_ samples: UnsafeBufferPointer<Float>) -> Float {
        guard let base = samples.baseAddress, !samples.isEmpty else {
            return 0
        }
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Float>.stride
        var lanes = SIMD8<Float>()
        var index = 0
        while index + 8 <= samples.count {
            let chunk = raw.loadUnaligned(fromByteOffset: index * stride, as: SIMD8<Float>.self)
            lanes += chunk * chunk
            index += 8
        }
        var sumOfSquares = lanes.sum()
        while index < samples.count {
            sumOfSquares += samples[index] * samples[index]
            index += 1
        }
        return (sumOfSquares / Float(samples.count)).squareRoot()
    }

    /// Maps an RMS amplitude to 0…1, linear in dBFS between `floorDecibels` (0) and 0 dBFS (1), clamped.
    ///
    /// An RMS of zero, a negative value or NaN is silence (0).
    public static func normalisedLevel(rms: Float, floorDecibels: Float) -> Float {
        precondition(floorDecibels < 0, "floorDecibels must be below 0 dBFS")
        guard rms > 0 else {
            return 0
        }
        let decibels = 20 * log10(rms)
        let level = (decibels - floorDecibels) / -floorDecibels
        return min(max(level, 0), 1)
    }
}
