import Foundation
import OpenCoreVideo

/// A code naming the role of one channel, such as left or low-frequency effects.
public typealias AudioChannelLabel = UInt32

/// An unknown role.
public let kAudioChannelLabel_Unknown: AudioChannelLabel = 0xFFFF_FFFF
/// The channel is unused.
public let kAudioChannelLabel_Unused: AudioChannelLabel = 0
/// The channel is placed by the description's coordinates.
public let kAudioChannelLabel_UseCoordinates: AudioChannelLabel = 100
/// Left.
public let kAudioChannelLabel_Left: AudioChannelLabel = 1
/// Right.
public let kAudioChannelLabel_Right: AudioChannelLabel = 2
/// Center.
public let kAudioChannelLabel_Center: AudioChannelLabel = 3
/// Low-frequency effects.
public let kAudioChannelLabel_LFEScreen: AudioChannelLabel = 4
/// Left surround.
public let kAudioChannelLabel_LeftSurround: AudioChannelLabel = 5
/// Right surround.
public let kAudioChannelLabel_RightSurround: AudioChannelLabel = 6
/// Left center.
public let kAudioChannelLabel_LeftCenter: AudioChannelLabel = 7
/// Right center.
public let kAudioChannelLabel_RightCenter: AudioChannelLabel = 8
/// Center surround.
public let kAudioChannelLabel_CenterSurround: AudioChannelLabel = 9
/// Left surround direct (side left).
public let kAudioChannelLabel_LeftSurroundDirect: AudioChannelLabel = 10
/// Right surround direct (side right).
public let kAudioChannelLabel_RightSurroundDirect: AudioChannelLabel = 11
/// Top center surround.
public let kAudioChannelLabel_TopCenterSurround: AudioChannelLabel = 12
/// Rear surround left.
public let kAudioChannelLabel_RearSurroundLeft: AudioChannelLabel = 33
/// Rear surround right.
public let kAudioChannelLabel_RearSurroundRight: AudioChannelLabel = 34
/// Second low-frequency effects channel.
public let kAudioChannelLabel_LFE2: AudioChannelLabel = 37
/// Mono.
public let kAudioChannelLabel_Mono: AudioChannelLabel = 42
/// A discrete channel with no role; see also `kAudioChannelLabel_Discrete_0` and up.
public let kAudioChannelLabel_Discrete: AudioChannelLabel = 400
/// Discrete channel 0; channel *n* is `kAudioChannelLabel_Discrete_0 | n`.
public let kAudioChannelLabel_Discrete_0: AudioChannelLabel = (1 << 16) | 0
