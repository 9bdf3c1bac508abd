import Foundation
import OpenCoreVideo

/// A four-character code identifying an audio data format, such as `'aac '` or `'lpcm'`.
public typealias AudioFormatID = UInt32

/// Linear PCM, uncompressed audio with one frame per packet (`'lpcm'`).
public let kAudioFormatLinearPCM: AudioFormatID = 0x6C70_636D // 'lpcm'
/// AC-3 (Dolby Digital) (`'ac-3'`).
public let kAudioFormatAC3: AudioFormatID = 0x6163_2D33 // 'ac-3'
/// AC-3 packaged for transport over an IEC 60958 interface (`'cac3'`).
public let kAudioFormat60958AC3: AudioFormatID = 0x6361_6333 // 'cac3'
/// Apple's IMA 4:1 ADPCM (`'ima4'`).
public let kAudioFormatAppleIMA4: AudioFormatID = 0x696D_6134 // 'ima4'
/// MPEG-4 AAC (`'aac '`); the flags field carries the MPEG-4 audio object type.
public let kAudioFormatMPEG4AAC: AudioFormatID = 0x6161_6320 // 'aac '
/// μ-law 2:1 (`'ulaw'`).
public let kAudioFormatULaw: AudioFormatID = 0x756C_6177 // 'ulaw'
/// A-law 2:1 (`'alaw'`).
public let kAudioFormatALaw: AudioFormatID = 0x616C_6177 // 'alaw'
/// MPEG-1/2 Layer 1 audio (`'.mp1'`).
public let kAudioFormatMPEGLayer1: AudioFormatID = 0x2E6D_7031 // '.mp1'
/// MPEG-1/2 Layer 2 audio (`'.mp2'`).
public let kAudioFormatMPEGLayer2: AudioFormatID = 0x2E6D_7032 // '.mp2'
/// MPEG-1/2 Layer 3 audio, MP3 (`'.mp3'`).
public let kAudioFormatMPEGLayer3: AudioFormatID = 0x2E6D_7033 // '.mp3'
/// Apple Lossless (ALAC) (`'alac'`).
public let kAudioFormatAppleLossless: AudioFormatID = 0x616C_6163 // 'alac'
/// MPEG-4 High Efficiency AAC (`'aach'`).
public let kAudioFormatMPEG4AAC_HE: AudioFormatID = 0x6161_6368 // 'aach'
/// MPEG-4 AAC Low Delay (`'aacl'`).
public let kAudioFormatMPEG4AAC_LD: AudioFormatID = 0x6161_636C // 'aacl'
/// MPEG-4 AAC Enhanced Low Delay (`'aace'`).
public let kAudioFormatMPEG4AAC_ELD: AudioFormatID = 0x6161_6365 // 'aace'
/// MPEG-4 High Efficiency AAC version 2 (`'aacp'`).
public let kAudioFormatMPEG4AAC_HE_V2: AudioFormatID = 0x6161_6370 // 'aacp'
/// AMR narrow band speech (`'samr'`).
public let kAudioFormatAMR: AudioFormatID = 0x7361_6D72 // 'samr'
/// AMR wide band speech (`'sawb'`).
public let kAudioFormatAMR_WB: AudioFormatID = 0x7361_7762 // 'sawb'
/// AES3-2003 (`'aes3'`).
public let kAudioFormatAES3: AudioFormatID = 0x6165_7333 // 'aes3'
/// Enhanced AC-3 (Dolby Digital Plus) (`'ec-3'`).
public let kAudioFormatEnhancedAC3: AudioFormatID = 0x6563_2D33 // 'ec-3'
/// Free Lossless Audio Codec (`'flac'`).
public let kAudioFormatFLAC: AudioFormatID = 0x666C_6163 // 'flac'
/// Opus (`'opus'`).
public let kAudioFormatOpus: AudioFormatID = 0x6F70_7573 // 'opus'
