import Foundation
import CaptureDevices
import OpenCoreMedia

/// A range of frame rates a capture format supports.
public final class AVFrameRateRange: NSObject, @unchecked Sendable {
    let range: CaptureFrameRateRange

    init(_ range: CaptureFrameRateRange) {
        self.range = range
    }

    /// The lowest frame rate, in frames per second.
    public var minFrameRate: Float64 { range.minFrameRate }
    /// The highest frame rate, in frames per second.
    public var maxFrameRate: Float64 { range.maxFrameRate }
    /// The shortest frame duration (the highest rate).
    public var minFrameDuration: CMTime { range.minFrameDuration }
    /// The longest frame duration (the lowest rate).
    public var maxFrameDuration: CMTime { range.maxFrameDuration }

    /// Whether `object` is the same range of frame durations.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? AVFrameRateRange)?.range == range
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int { range.hashValue }

    /// A description for debugging.
    public override var description: String { "<AVFrameRateRange: \(range)>" }
}
