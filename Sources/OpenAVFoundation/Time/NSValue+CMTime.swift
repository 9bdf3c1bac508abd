import Foundation
import OpenCoreMedia

/// `NSValue` boxes for times, ranges and mappings, as AVFoundation adds them, for the APIs that
/// take arrays of `NSValue` (`generateCGImagesAsynchronously(forTimes:)`,
/// `reset(forReadingTimeRanges:)`, boundary time observers).
///
/// Differs from Apple: Foundation on Linux cannot box structs by their Objective-C type, so the
/// value is stored as its bytes with the type encoding `[NC]` (N = the struct's size); reading a
/// box of another kind gives the invalid value.
extension NSValue {
    /// Boxes a time.
    public convenience init(time: CMTime) {
        var value = time
        let encoding = Self.encoding(of: CMTime.self)
        self.init(bytes: &value, objCType: encoding)
    }

    /// The boxed time, or `CMTime.invalid` when the value holds something else.
    public var timeValue: CMTime { unbox(as: CMTime.self) ?? .invalid }

    /// Boxes a time range.
    public convenience init(timeRange: CMTimeRange) {
        var value = timeRange
        let encoding = Self.encoding(of: CMTimeRange.self)
        self.init(bytes: &value, objCType: encoding)
    }

    /// The boxed time range, or `CMTimeRange.invalid` when the value holds something else.
    public var timeRangeValue: CMTimeRange { unbox(as: CMTimeRange.self) ?? .invalid }

    /// Boxes a time mapping.
    public convenience init(timeMapping: CMTimeMapping) {
        var value = timeMapping
        let encoding = Self.encoding(of: CMTimeMapping.self)
        self.init(bytes: &value, objCType: encoding)
    }

    /// The boxed time mapping, or `CMTimeMapping.invalid` when the value holds something else.
    public var timeMappingValue: CMTimeMapping { unbox(as: CMTimeMapping.self) ?? .invalid }

    /// The byte-array type encoding of a plain struct.
    private static func encoding<T>(of type: T.Type) -> String { "[\(MemoryLayout<T>.size)C]" }

    /// The boxed struct, when the box holds a `T`.
    private func unbox<T>(as type: T.Type) -> T? {
        guard String(cString: objCType) == Self.encoding(of: T.self) else { return nil }
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        defer { bytes.deallocate() }
        getValue(bytes)
        return bytes.load(as: T.self)
    }
}
