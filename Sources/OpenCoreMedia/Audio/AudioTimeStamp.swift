/// A moment on an audio stream's timelines, as Core Audio's render callbacks give it: the
/// sample time, the host time and the rate between them, each valid when `mFlags` says so.
public struct AudioTimeStamp {
    /// The time in sample frames.
    public var mSampleTime: Float64
    /// The host clock's time (`mach_absolute_time`'s units: nanoseconds here).
    public var mHostTime: UInt64
    /// How far the device's sample rate is from its nominal rate (1: exactly).
    public var mRateScalar: Float64
    /// The word clock's time.
    public var mWordClockTime: UInt64
    /// The SMPTE time.
    public var mSMPTETime: SMPTETime
    /// Which of the fields are valid.
    public var mFlags: AudioTimeStampFlags
    /// Reserved; zero.
    public var mReserved: UInt32

    /// A time stamp with nothing valid.
    public init() {
        self.init(mSampleTime: 0, mHostTime: 0, mRateScalar: 0, mWordClockTime: 0, mSMPTETime: SMPTETime(), mFlags: [], mReserved: 0)
    }

    /// A time stamp of the given fields.
    public init(mSampleTime: Float64, mHostTime: UInt64, mRateScalar: Float64, mWordClockTime: UInt64, mSMPTETime: SMPTETime,
                mFlags: AudioTimeStampFlags, mReserved: UInt32) {
        self.mSampleTime = mSampleTime
        self.mHostTime = mHostTime
        self.mRateScalar = mRateScalar
        self.mWordClockTime = mWordClockTime
        self.mSMPTETime = mSMPTETime
        self.mFlags = mFlags
        self.mReserved = mReserved
    }
}
