import Foundation
import OpenCoreVideo

/// A count of items, such as samples.
public typealias CMItemCount = Int

/// An index of an item, such as a sample.
public typealias CMItemIndex = Int

/// The timing of a sample: duration, presentation and decode timestamps.
///
/// Linux addition: `Equatable` and `Sendable`.
public struct CMSampleTimingInfo: Equatable, Sendable {
    /// How long the sample lasts.
    public var duration: CMTime
    /// When the sample is presented.
    public var presentationTimeStamp: CMTime
    /// When the sample is decoded; `.invalid` when decode order is presentation order.
    public var decodeTimeStamp: CMTime

    /// Creates timing with every time zero-initialized (invalid).
    public init() {
        self.init(duration: CMTime(), presentationTimeStamp: CMTime(), decodeTimeStamp: CMTime())
    }

    /// Creates timing from a duration and timestamps.
    public init(duration: CMTime, presentationTimeStamp: CMTime, decodeTimeStamp: CMTime) {
        self.duration = duration
        self.presentationTimeStamp = presentationTimeStamp
        self.decodeTimeStamp = decodeTimeStamp
    }

    /// Timing whose three times are all `.invalid`.
    public static let invalid = CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: .invalid,
                                                   decodeTimeStamp: .invalid)

    /// Compares the three times field by field, flags included (so two invalid timings are equal).
    public static func == (lhs: CMSampleTimingInfo, rhs: CMSampleTimingInfo) -> Bool {
        func same(_ a: CMTime, _ b: CMTime) -> Bool {
            a.value == b.value && a.timescale == b.timescale && a.flags == b.flags && a.epoch == b.epoch
        }
        return same(lhs.duration, rhs.duration) && same(lhs.presentationTimeStamp, rhs.presentationTimeStamp)
            && same(lhs.decodeTimeStamp, rhs.decodeTimeStamp)
    }
}

/// Timing whose three times are all `kCMTimeInvalid`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMSampleTimingInfo.invalid`.
public let kCMTimingInfoInvalid = CMSampleTimingInfo.invalid
