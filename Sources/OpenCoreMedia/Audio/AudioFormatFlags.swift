import Foundation
import OpenCoreVideo

/// Flags qualifying an `AudioFormatID`; for linear PCM they describe the sample layout.
public typealias AudioFormatFlags = UInt32

/// Samples are floating point; when clear, they are integers.
public let kAudioFormatFlagIsFloat: AudioFormatFlags = 1 << 0
/// Samples are big-endian; when clear, little-endian.
public let kAudioFormatFlagIsBigEndian: AudioFormatFlags = 1 << 1
/// Integer samples are signed; when clear, unsigned.
public let kAudioFormatFlagIsSignedInteger: AudioFormatFlags = 1 << 2
/// Sample bits occupy the whole of each channel's bytes (no padding).
public let kAudioFormatFlagIsPacked: AudioFormatFlags = 1 << 3
/// Unpacked samples are aligned to the high bits of their bytes; when clear, the low bits.
public let kAudioFormatFlagIsAlignedHigh: AudioFormatFlags = 1 << 4
/// Channels are in separate buffers (planar); when clear, interleaved.
public let kAudioFormatFlagIsNonInterleaved: AudioFormatFlags = 1 << 5
/// The stream is not to be mixed with others.
public let kAudioFormatFlagIsNonMixable: AudioFormatFlags = 1 << 6
/// Set explicitly to say that all other flags are clear.
public let kAudioFormatFlagsAreAllClear: AudioFormatFlags = 0x8000_0000

/// Linear PCM alias of `kAudioFormatFlagIsFloat`.
public let kLinearPCMFormatFlagIsFloat: AudioFormatFlags = kAudioFormatFlagIsFloat
/// Linear PCM alias of `kAudioFormatFlagIsBigEndian`.
public let kLinearPCMFormatFlagIsBigEndian: AudioFormatFlags = kAudioFormatFlagIsBigEndian
/// Linear PCM alias of `kAudioFormatFlagIsSignedInteger`.
public let kLinearPCMFormatFlagIsSignedInteger: AudioFormatFlags = kAudioFormatFlagIsSignedInteger
/// Linear PCM alias of `kAudioFormatFlagIsPacked`.
public let kLinearPCMFormatFlagIsPacked: AudioFormatFlags = kAudioFormatFlagIsPacked
/// Linear PCM alias of `kAudioFormatFlagIsAlignedHigh`.
public let kLinearPCMFormatFlagIsAlignedHigh: AudioFormatFlags = kAudioFormatFlagIsAlignedHigh
/// Linear PCM alias of `kAudioFormatFlagIsNonInterleaved`.
public let kLinearPCMFormatFlagIsNonInterleaved: AudioFormatFlags = kAudioFormatFlagIsNonInterleaved
/// Linear PCM alias of `kAudioFormatFlagIsNonMixable`.
public let kLinearPCMFormatFlagIsNonMixable: AudioFormatFlags = kAudioFormatFlagIsNonMixable
/// Bit position of the fixed-point fraction-bit count in linear PCM flags.
public let kLinearPCMFormatFlagsSampleFractionShift: AudioFormatFlags = 7
/// Mask of the fixed-point fraction-bit count in linear PCM flags.
public let kLinearPCMFormatFlagsSampleFractionMask: AudioFormatFlags = 0x3F << kLinearPCMFormatFlagsSampleFractionShift
/// Linear PCM alias of `kAudioFormatFlagsAreAllClear`.
public let kLinearPCMFormatFlagsAreAllClear: AudioFormatFlags = kAudioFormatFlagsAreAllClear

/// The endianness flag of the machine running the code: `0` on little-endian Linux targets.
public let kAudioFormatFlagsNativeEndian: AudioFormatFlags = {
    #if _endian(big)
    return kAudioFormatFlagIsBigEndian
    #else
    return 0
    #endif
}()

/// Native-endian, packed 32-bit float samples: Core Audio's canonical float format.
public let kAudioFormatFlagsNativeFloatPacked: AudioFormatFlags =
    kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked
