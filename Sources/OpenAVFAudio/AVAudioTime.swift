import Foundation
import OpenCoreMedia

/// A moment in audio: a host time (nanoseconds of the host time clock, `CLOCK_MONOTONIC`, the
/// clock capture stamps its sample buffers on and `CMClockGetHostTimeClock()` reads), a sample
/// time at a sample rate, or both. Immutable.
open class AVAudioTime: NSObject, @unchecked Sendable {
    /// The host time in nanoseconds; meaningful when `isHostTimeValid`.
    public let hostTime: UInt64
    /// Whether `hostTime` is set.
    public let isHostTimeValid: Bool
    /// The sample time in frames at `sampleRate`; meaningful when `isSampleTimeValid`.
    public let sampleTime: AVAudioFramePosition
    /// Whether `sampleTime` is set.
    public let isSampleTimeValid: Bool
    /// The sample rate `sampleTime` counts at.
    public let sampleRate: Double

    /// A time at a host time only.
    public convenience init(hostTime: UInt64) {
        self.init(hostTime: hostTime, hostValid: true, sampleTime: 0, sampleValid: false, rate: 0)
    }

    /// A time at a sample time only, counted at a sample rate.
    public convenience init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        self.init(hostTime: 0, hostValid: false, sampleTime: sampleTime, sampleValid: true, rate: sampleRate)
    }

    /// A time at both a host time and a sample time.
    public convenience init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        self.init(hostTime: hostTime, hostValid: true, sampleTime: sampleTime, sampleValid: true, rate: sampleRate)
    }

    /// The initializer behind the public ones.
    private init(hostTime: UInt64, hostValid: Bool, sampleTime: AVAudioFramePosition, sampleValid: Bool, rate: Double) {
        self.hostTime = hostTime
        isHostTimeValid = hostValid
        self.sampleTime = sampleTime
        isSampleTimeValid = sampleValid
        sampleRate = rate
        super.init()
    }

    /// The host time of a number of seconds (host time counts nanoseconds).
    open class func hostTime(forSeconds seconds: TimeInterval) -> UInt64 {
        seconds <= 0 ? 0 : CMClockConvertHostTimeToSystemUnits(CMTime(seconds: seconds, preferredTimescale: 1_000_000_000))
    }

    /// The seconds a host time counts.
    open class func seconds(forHostTime hostTime: UInt64) -> TimeInterval {
        CMClockMakeHostTimeFromSystemUnits(hostTime).seconds
    }

    /// This time completed from an anchor that has both a host and a sample time: the missing
    /// one computed from the anchor at the sample rate (this time's, else the anchor's). Nil
    /// when the anchor lacks either time or this time has neither.
    open func extrapolateTime(fromAnchor anchorTime: AVAudioTime) -> AVAudioTime? {
        guard anchorTime.isHostTimeValid, anchorTime.isSampleTimeValid, anchorTime.sampleRate > 0,
              isHostTimeValid || isSampleTimeValid else { return nil }
        let rate = isSampleTimeValid && sampleRate > 0 ? sampleRate : anchorTime.sampleRate
        // The anchor's sample time at this rate.
        let anchorSample = Double(anchorTime.sampleTime) * rate / anchorTime.sampleRate
        if isHostTimeValid && isSampleTimeValid { return self }
        if isSampleTimeValid {
            let seconds = (Double(sampleTime) - anchorSample) / rate
            let host = Int64(anchorTime.hostTime) + Int64((seconds * 1e9).rounded())
            return AVAudioTime(hostTime: UInt64(max(0, host)), sampleTime: sampleTime, atRate: rate)
        }
        let seconds = (Double(hostTime) - Double(anchorTime.hostTime)) / 1e9
        let sample = AVAudioFramePosition((anchorSample + seconds * rate).rounded())
        return AVAudioTime(hostTime: hostTime, sampleTime: sample, atRate: rate)
    }
}
