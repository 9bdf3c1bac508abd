import Foundation
import OpenCoreVideo

/// A code naming a standard channel layout; the low 16 bits hold the channel count.
public typealias AudioChannelLayoutTag = UInt32

/// The layout is given by the layout's channel descriptions.
public let kAudioChannelLayoutTag_UseChannelDescriptions: AudioChannelLayoutTag = (0 << 16) | 0
/// The layout is given by the layout's channel bitmap.
public let kAudioChannelLayoutTag_UseChannelBitmap: AudioChannelLayoutTag = (1 << 16) | 0
/// One channel: C.
public let kAudioChannelLayoutTag_Mono: AudioChannelLayoutTag = (100 << 16) | 1
/// Two channels: L R.
public let kAudioChannelLayoutTag_Stereo: AudioChannelLayoutTag = (101 << 16) | 2
/// Two channels for headphones: L R.
public let kAudioChannelLayoutTag_StereoHeadphones: AudioChannelLayoutTag = (102 << 16) | 2
/// Two matrix-encoded channels: Lt Rt.
public let kAudioChannelLayoutTag_MatrixStereo: AudioChannelLayoutTag = (103 << 16) | 2
/// Mid/side recording.
public let kAudioChannelLayoutTag_MidSide: AudioChannelLayoutTag = (104 << 16) | 2
/// Coincident XY microphone pair.
public let kAudioChannelLayoutTag_XY: AudioChannelLayoutTag = (105 << 16) | 2
/// Binaural stereo.
public let kAudioChannelLayoutTag_Binaural: AudioChannelLayoutTag = (106 << 16) | 2
/// First-order Ambisonics B-format: W X Y Z.
public let kAudioChannelLayoutTag_Ambisonic_B_Format: AudioChannelLayoutTag = (107 << 16) | 4
/// Four channels: L R Ls Rs.
public let kAudioChannelLayoutTag_Quadraphonic: AudioChannelLayoutTag = (108 << 16) | 4
/// Five channels: L R Ls Rs C.
public let kAudioChannelLayoutTag_Pentagonal: AudioChannelLayoutTag = (109 << 16) | 5
/// Six channels: L R Ls Rs C Cs.
public let kAudioChannelLayoutTag_Hexagonal: AudioChannelLayoutTag = (110 << 16) | 6
/// Eight channels: L R Ls Rs C Cs Lw Rw.
public let kAudioChannelLayoutTag_Octagonal: AudioChannelLayoutTag = (111 << 16) | 8
/// Eight channels at the corners of a cube.
public let kAudioChannelLayoutTag_Cube: AudioChannelLayoutTag = (112 << 16) | 8
/// MPEG 1.0: same as mono.
public let kAudioChannelLayoutTag_MPEG_1_0: AudioChannelLayoutTag = kAudioChannelLayoutTag_Mono
/// MPEG 2.0: same as stereo.
public let kAudioChannelLayoutTag_MPEG_2_0: AudioChannelLayoutTag = kAudioChannelLayoutTag_Stereo
/// MPEG 3.0 A: L R C.
public let kAudioChannelLayoutTag_MPEG_3_0_A: AudioChannelLayoutTag = (113 << 16) | 3
/// MPEG 3.0 B: C L R.
public let kAudioChannelLayoutTag_MPEG_3_0_B: AudioChannelLayoutTag = (114 << 16) | 3
/// MPEG 4.0 A: L R C Cs.
public let kAudioChannelLayoutTag_MPEG_4_0_A: AudioChannelLayoutTag = (115 << 16) | 4
/// MPEG 4.0 B: C L R Cs.
public let kAudioChannelLayoutTag_MPEG_4_0_B: AudioChannelLayoutTag = (116 << 16) | 4
/// MPEG 5.0 A: L R C Ls Rs.
public let kAudioChannelLayoutTag_MPEG_5_0_A: AudioChannelLayoutTag = (117 << 16) | 5
/// MPEG 5.0 B: L R Ls Rs C.
public let kAudioChannelLayoutTag_MPEG_5_0_B: AudioChannelLayoutTag = (118 << 16) | 5
/// MPEG 5.0 C: L C R Ls Rs.
public let kAudioChannelLayoutTag_MPEG_5_0_C: AudioChannelLayoutTag = (119 << 16) | 5
/// MPEG 5.0 D: C L R Ls Rs.
public let kAudioChannelLayoutTag_MPEG_5_0_D: AudioChannelLayoutTag = (120 << 16) | 5
/// MPEG 5.1 A: L R C LFE Ls Rs (FFmpeg's and WAVE's 5.1 order).
public let kAudioChannelLayoutTag_MPEG_5_1_A: AudioChannelLayoutTag = (121 << 16) | 6
/// MPEG 5.1 B: L R Ls Rs C LFE.
public let kAudioChannelLayoutTag_MPEG_5_1_B: AudioChannelLayoutTag = (122 << 16) | 6
/// MPEG 5.1 C: L C R Ls Rs LFE.
public let kAudioChannelLayoutTag_MPEG_5_1_C: AudioChannelLayoutTag = (123 << 16) | 6
/// MPEG 5.1 D: C L R Ls Rs LFE (AAC's 5.1 order).
public let kAudioChannelLayoutTag_MPEG_5_1_D: AudioChannelLayoutTag = (124 << 16) | 6
/// MPEG 6.1 A: L R C LFE Ls Rs Cs.
public let kAudioChannelLayoutTag_MPEG_6_1_A: AudioChannelLayoutTag = (125 << 16) | 7
/// MPEG 7.1 A: L R C LFE Ls Rs Lc Rc.
public let kAudioChannelLayoutTag_MPEG_7_1_A: AudioChannelLayoutTag = (126 << 16) | 8
/// MPEG 7.1 B: C Lc Rc L R Ls Rs LFE.
public let kAudioChannelLayoutTag_MPEG_7_1_B: AudioChannelLayoutTag = (127 << 16) | 8
/// MPEG 7.1 C: L R C LFE Ls Rs Rls Rrs.
public let kAudioChannelLayoutTag_MPEG_7_1_C: AudioChannelLayoutTag = (128 << 16) | 8
/// Emagic's default 7.1: L R Ls Rs C LFE Lc Rc.
public let kAudioChannelLayoutTag_Emagic_Default_7_1: AudioChannelLayoutTag = (129 << 16) | 8
/// SMPTE DTV: L R C LFE Ls Rs Lt Rt.
public let kAudioChannelLayoutTag_SMPTE_DTV: AudioChannelLayoutTag = (130 << 16) | 8
/// ITU 2.1: L R Cs.
public let kAudioChannelLayoutTag_ITU_2_1: AudioChannelLayoutTag = (131 << 16) | 3
/// ITU 2.2: L R Ls Rs.
public let kAudioChannelLayoutTag_ITU_2_2: AudioChannelLayoutTag = (132 << 16) | 4
/// ITU 3.2.1: same as MPEG 5.1 A.
public let kAudioChannelLayoutTag_ITU_3_2_1: AudioChannelLayoutTag = kAudioChannelLayoutTag_MPEG_5_1_A
/// AAC 5.1: same as MPEG 5.1 D.
public let kAudioChannelLayoutTag_AAC_5_1: AudioChannelLayoutTag = kAudioChannelLayoutTag_MPEG_5_1_D
/// AAC 7.1: same as MPEG 7.1 B.
public let kAudioChannelLayoutTag_AAC_7_1: AudioChannelLayoutTag = kAudioChannelLayoutTag_MPEG_7_1_B
/// Channels in no particular arrangement; OR the channel count into the low 16 bits.
public let kAudioChannelLayoutTag_DiscreteInOrder: AudioChannelLayoutTag = (147 << 16) | 0
/// An unknown layout; OR the channel count into the low 16 bits.
public let kAudioChannelLayoutTag_Unknown: AudioChannelLayoutTag = 0xFFFF_0000

/// The number of channels a layout tag describes: its low 16 bits.
public func AudioChannelLayoutTag_GetNumberOfChannels(_ inLayoutTag: AudioChannelLayoutTag) -> UInt32 {
    inLayoutTag & 0x0000_FFFF
}
