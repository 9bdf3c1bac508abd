/// A SMPTE time, as an `AudioTimeStamp` carries one (the fields of Core Audio's structure).
public struct SMPTETime {
    /// The subframes within the frame.
    public var mSubframes: Int16
    /// The subframes in a frame.
    public var mSubframeDivisor: Int16
    /// The total frames, for formats that count them.
    public var mCounter: UInt32
    /// The frame rate and counting.
    public var mType: SMPTETimeType
    /// Whether the time is valid and running.
    public var mFlags: SMPTETimeFlags
    /// The hours.
    public var mHours: Int16
    /// The minutes.
    public var mMinutes: Int16
    /// The seconds.
    public var mSeconds: Int16
    /// The frames.
    public var mFrames: Int16

    /// A time of zero, not valid.
    public init() {
        self.init(mSubframes: 0, mSubframeDivisor: 0, mCounter: 0, mType: .type24, mFlags: [], mHours: 0, mMinutes: 0, mSeconds: 0, mFrames: 0)
    }

    /// A time of the given fields.
    public init(mSubframes: Int16, mSubframeDivisor: Int16, mCounter: UInt32, mType: SMPTETimeType, mFlags: SMPTETimeFlags,
                mHours: Int16, mMinutes: Int16, mSeconds: Int16, mFrames: Int16) {
        self.mSubframes = mSubframes
        self.mSubframeDivisor = mSubframeDivisor
        self.mCounter = mCounter
        self.mType = mType
        self.mFlags = mFlags
        self.mHours = mHours
        self.mMinutes = mMinutes
        self.mSeconds = mSeconds
        self.mFrames = mFrames
    }
}
