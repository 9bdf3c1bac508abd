/// Flags passed to `CVPixelBufferLockBaseAddress(_:_:)` and `CVPixelBufferUnlockBaseAddress(_:_:)`.
///
/// Differs from Apple: memory is always in main memory on Linux, so the flags only have to match
/// between lock and unlock; `.readOnly` does not make the pages read-only.
public struct CVPixelBufferLockFlags: OptionSet, Sendable, Hashable {
    /// The raw flag bits.
    public let rawValue: CVOptionFlags

    /// Creates flags from raw bits.
    public init(rawValue: CVOptionFlags) {
        self.rawValue = rawValue
    }

    /// The caller will not modify the pixels while it holds the lock.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 0x0000_0001)
}
