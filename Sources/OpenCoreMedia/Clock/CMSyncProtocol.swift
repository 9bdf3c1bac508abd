import Foundation
import OpenCoreVideo

/// What clocks and timebases have in common: a time now, and rates and times relative to one
/// another. `CMClock` and `CMTimebase` conform.
///
/// Differs from Apple: every clock is the host time clock, so nothing drifts.
public protocol CMSyncProtocol: Sendable {
    /// The current time.
    var time: CMTime { get }
    /// The rate of this clock or timebase relative to `clockOrTimebase`; NaN relative to a
    /// stopped timebase.
    func rate<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Double
    /// The rate relative to `clockOrTimebase`, with this one's time and that one's at one moment.
    func rateAndAnchorTime<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) throws
        -> (rate: Double, anchorTime: CMTime, referenceTime: CMTime)
    /// `time` on this clock's or timebase's timeline, converted to `clockOrTimebase`'s.
    func convertTime<T: CMSyncProtocol>(_ time: CMTime, to clockOrTimebase: T) -> CMTime
    /// Whether this clock or timebase might drift relative to `clockOrTimebase`; never here.
    func mightDrift<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Bool
}

extension CMSyncProtocol {
    /// The rate relative to `clockOrTimebase`, as `CMSyncGetRelativeRate` gives it.
    public func rate<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Double {
        CMSyncGetRelativeRate(self as AnyObject, relativeTo: clockOrTimebase as AnyObject)
    }

    /// The rate relative to `clockOrTimebase` and the two times at one moment, as
    /// `CMSyncGetRelativeRateAndAnchorTime` gives them.
    public func rateAndAnchorTime<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) throws
        -> (rate: Double, anchorTime: CMTime, referenceTime: CMTime) {
        var rate = 0.0, anchorTime = CMTime.invalid, referenceTime = CMTime.invalid
        try throwIfError(CMSyncGetRelativeRateAndAnchorTime(self as AnyObject, relativeTo: clockOrTimebase as AnyObject,
                                                            relativeRateOut: &rate, anchorTimeOut: &anchorTime,
                                                            relativeToAnchorTimeOut: &referenceTime))
        return (rate, anchorTime, referenceTime)
    }

    /// `time` converted to `clockOrTimebase`'s timeline, as `CMSyncConvertTime` does.
    public func convertTime<T: CMSyncProtocol>(_ time: CMTime, to clockOrTimebase: T) -> CMTime {
        CMSyncConvertTime(time, from: self as AnyObject, to: clockOrTimebase as AnyObject)
    }

    /// Never: every clock and timebase here runs on the host time clock.
    public func mightDrift<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Bool {
        CMSyncMightDrift(self as AnyObject, clockOrTimebase as AnyObject)
    }
}

extension CMClock: CMSyncProtocol {}

extension CMTimebase: CMSyncProtocol {}
