/// The formats of audio samples `AVAudioFormat` names directly, with Apple's raw values.
public enum AVAudioCommonFormat: UInt, Sendable {
    /// A format other than the ones below (compressed, big-endian, 24-bit, …).
    case otherFormat = 0
    /// Native-endian 32-bit floating point samples: the standard format.
    case pcmFormatFloat32 = 1
    /// Native-endian 64-bit floating point samples.
    case pcmFormatFloat64 = 2
    /// Signed native-endian 16-bit integer samples.
    case pcmFormatInt16 = 3
    /// Signed native-endian 32-bit integer samples.
    case pcmFormatInt32 = 4
}
