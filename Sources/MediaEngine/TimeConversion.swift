import CFFmpeg
import OpenCoreMedia

extension CMTime {
    /// The time of an FFmpeg timestamp counted in `timeBase` units; invalid for
    /// `AV_NOPTS_VALUE`. Exact: the timescale is the time base's denominator whenever the
    /// numerator multiplies in without overflow.
    package init(ffmpegTimestamp timestamp: Int64, timeBase: AVRational) {
        guard timestamp != cffmpeg_nopts_value(), timeBase.den > 0, timeBase.num > 0 else {
            self = .invalid
            return
        }
        let (value, overflow) = timestamp.multipliedReportingOverflow(by: Int64(timeBase.num))
        if overflow {
            self = CMTimeMultiplyByRatio(CMTime(value: timestamp, timescale: timeBase.den),
                                         multiplier: timeBase.num, divisor: 1)
        } else {
            self = CMTime(value: value, timescale: timeBase.den)
        }
    }

    /// The time as an FFmpeg timestamp in `timeBase` units, rounded to nearest;
    /// `AV_NOPTS_VALUE` when the time is not numeric.
    package func ffmpegTimestamp(in timeBase: AVRational) -> Int64 {
        guard isNumeric else { return cffmpeg_nopts_value() }
        return av_rescale_q(value, AVRational(num: 1, den: timescale), timeBase)
    }
}
