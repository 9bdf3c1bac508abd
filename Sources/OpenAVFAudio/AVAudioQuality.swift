import Foundation

/// The quality of audio encoding or sample rate conversion, with Apple's raw values.
public enum AVAudioQuality: Int, Sendable {
    /// The lowest quality (0).
    case min = 0
    /// Low quality (0x20).
    case low = 0x20
    /// Medium quality (0x40).
    case medium = 0x40
    /// High quality (0x60).
    case high = 0x60
    /// The highest quality (0x7F).
    case max = 0x7F
}
