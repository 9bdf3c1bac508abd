/// Flags passed to `CVPixelBufferPoolFlush(_:_:)`.
public struct CVPixelBufferPoolFlushFlags: OptionSet, Sendable, Hashable {
    /// The raw flag bits.
    public let rawValue: CVOptionFlags

    /// Creates flags from raw bits.
    public init(rawValue: CVOptionFlags) {
        self.rawValue = rawValue
    }

    /// Free every unused buffer, whatever its age.
    public static let excessBuffers = CVPixelBufferPoolFlushFlags(rawValue: 1)
}
