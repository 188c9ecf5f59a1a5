@testable import ZIPFoundation

/// The zip library's 32-bit limits, which decide when ZIP64 records are written.
public enum ZIPLimits {
    /// Makes sizes and offsets past `sizesAndOffsets` bytes, and more than `entries` members, need ZIP64.
    /// Process-wide: only for a test that runs alone.
    public static func lower(sizesAndOffsets: UInt32, entries: UInt16) {
        maxUInt32 = sizesAndOffsets
        maxUInt16 = entries
    }

    /// Puts the format's own limits back.
    public static func restore() {
        maxUInt32 = .max
        maxUInt16 = .max
    }
}
