// The audio settings keys and values of settings dictionaries (AVFAudio's AVAudioSettings.h),
// with Apple's string values: AVAudioFormat, AVAudioFile and OpenAVFoundation's readers and
// writers take them.

import Foundation

// MARK: Keys for all formats

/// The format of the audio data, an `AudioFormatID` such as `kAudioFormatLinearPCM` (`NSNumber`).
public let AVFormatIDKey: String = "AVFormatIDKey"
/// The sample rate in hertz, a floating-point value (`NSNumber`).
public let AVSampleRateKey: String = "AVSampleRateKey"
/// The number of channels, an integer (`NSNumber`).
public let AVNumberOfChannelsKey: String = "AVNumberOfChannelsKey"
/// The channel layout, `Data` holding an `AudioChannelLayout`.
public let AVChannelLayoutKey: String = "AVChannelLayoutKey"

// MARK: Linear PCM keys

/// Bits per channel sample of linear PCM: 8, 16, 24 or 32 (`NSNumber`).
public let AVLinearPCMBitDepthKey: String = "AVLinearPCMBitDepthKey"
/// Whether linear PCM samples are big-endian (`Bool`).
public let AVLinearPCMIsBigEndianKey: String = "AVLinearPCMIsBigEndianKey"
/// Whether linear PCM samples are floating point (`Bool`).
public let AVLinearPCMIsFloatKey: String = "AVLinearPCMIsFloatKey"
/// Whether linear PCM channels are in separate buffers (`Bool`).
public let AVLinearPCMIsNonInterleaved: String = "AVLinearPCMIsNonInterleaved"
/// The same key as `AVLinearPCMIsNonInterleaved` (Apple defines it as a macro alias).
public let AVLinearPCMIsNonInterleavedKey: String = AVLinearPCMIsNonInterleaved

// MARK: Encoder keys

/// The encoder's quality, an `AVAudioQuality` raw value (`NSNumber`).
public let AVEncoderAudioQualityKey: String = "AVEncoderAudioQualityKey"
/// The encoder's quality for the variable bit rate strategy, an `AVAudioQuality` raw value.
public let AVEncoderAudioQualityForVBRKey: String = "AVEncoderAudioQualityForVBRKey"
/// The encoder's bit rate in bits per second (`NSNumber`); give this or the per-channel rate.
public let AVEncoderBitRateKey: String = "AVEncoderBitRateKey"
/// The encoder's bit rate per channel in bits per second (`NSNumber`).
public let AVEncoderBitRatePerChannelKey: String = "AVEncoderBitRatePerChannelKey"
/// The encoder's bit rate strategy, one of the `AVAudioBitRateStrategy_…` values (`String`).
public let AVEncoderBitRateStrategyKey: String = "AVEncoderBitRateStrategyKey"
/// The bit depth hint for the encoder, 8 to 32 (`NSNumber`).
public let AVEncoderBitDepthHintKey: String = "AVEncoderBitDepthHintKey"

// MARK: Sample rate converter keys

/// The sample rate converter's algorithm, one of the `AVSampleRateConverterAlgorithm_…` values.
public let AVSampleRateConverterAlgorithmKey: String = "AVSampleRateConverterAlgorithmKey"
/// The sample rate converter's quality, an `AVAudioQuality` raw value (`NSNumber`).
public let AVSampleRateConverterAudioQualityKey: String = "AVSampleRateConverterAudioQualityKey"

// MARK: Values

/// A constant bit rate.
public let AVAudioBitRateStrategy_Constant: String = "AVAudioBitRateStrategy_Constant"
/// An average bit rate over the long term.
public let AVAudioBitRateStrategy_LongTermAverage: String = "AVAudioBitRateStrategy_LongTermAverage"
/// A variable bit rate within limits.
public let AVAudioBitRateStrategy_VariableConstrained: String = "AVAudioBitRateStrategy_VariableConstrained"
/// An unconstrained variable bit rate.
public let AVAudioBitRateStrategy_Variable: String = "AVAudioBitRateStrategy_Variable"

/// The usual sample rate converter algorithm.
public let AVSampleRateConverterAlgorithm_Normal: String = "AVSampleRateConverterAlgorithm_Normal"
/// The sample rate converter algorithm for mastering.
public let AVSampleRateConverterAlgorithm_Mastering: String = "AVSampleRateConverterAlgorithm_Mastering"
/// A minimum-phase sample rate converter algorithm.
public let AVSampleRateConverterAlgorithm_MinimumPhase: String = "AVSampleRateConverterAlgorithm_MinimumPhase"
