import Foundation
import OpenCoreVideo

/// The role and optional position of one channel in an `AudioChannelLayout`.
///
/// Linux addition: `Equatable` and `Sendable`.
public struct AudioChannelDescription: Equatable, Sendable {
    /// The channel's role, such as `kAudioChannelLabel_Left`.
    public var mChannelLabel: AudioChannelLabel
    /// How `mCoordinates` is to be read.
    public var mChannelFlags: AudioChannelFlags
    /// The channel's position, used with `kAudioChannelLabel_UseCoordinates`.
    public var mCoordinates: (Float32, Float32, Float32)

    /// Creates a description with every field zero.
    public init() {
        self.init(mChannelLabel: 0, mChannelFlags: [], mCoordinates: (0, 0, 0))
    }

    /// Creates a description from every field, as Apple's memberwise initializer.
    public init(mChannelLabel: AudioChannelLabel, mChannelFlags: AudioChannelFlags,
                mCoordinates: (Float32, Float32, Float32)) {
        self.mChannelLabel = mChannelLabel
        self.mChannelFlags = mChannelFlags
        self.mCoordinates = mCoordinates
    }

    /// Compares label, flags and coordinates. Linux addition.
    public static func == (lhs: AudioChannelDescription, rhs: AudioChannelDescription) -> Bool {
        lhs.mChannelLabel == rhs.mChannelLabel && lhs.mChannelFlags == rhs.mChannelFlags
            && lhs.mCoordinates.0 == rhs.mCoordinates.0 && lhs.mCoordinates.1 == rhs.mCoordinates.1
            && lhs.mCoordinates.2 == rhs.mCoordinates.2
    }
}
