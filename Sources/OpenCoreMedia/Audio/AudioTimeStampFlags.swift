/// Which fields of an `AudioTimeStamp` are valid, with Core Audio's values.
public struct AudioTimeStampFlags: OptionSet, Sendable {
    /// The bits.
    public let rawValue: UInt32

    /// Flags of the given bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `mSampleTime` is valid.
    public static let sampleTimeValid = AudioTimeStampFlags(rawValue: 1 << 0)
    /// `mHostTime` is valid.
    public static let hostTimeValid = AudioTimeStampFlags(rawValue: 1 << 1)
    /// `mRateScalar` is valid.
    public static let rateScalarValid = AudioTimeStampFlags(rawValue: 1 << 2)
    /// `mWordClockTime` is valid.
    public static let wordClockTimeValid = AudioTimeStampFlags(rawValue: 1 << 3)
    /// `mSMPTETime` is valid.
    public static let smpteTimeValid = AudioTimeStampFlags(rawValue: 1 << 4)
    /// The sample and host times are valid.
    public static let sampleHostTimeValid: AudioTimeStampFlags = [.sampleTimeValid, .hostTimeValid]
}
