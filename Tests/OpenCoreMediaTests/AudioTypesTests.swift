import Foundation
import OpenCoreMedia
import OpenCoreVideo
import Testing

@Suite(.timeLimit(.minutes(10))) struct AudioTypesTests {
    @Test func formatIDsAreApplesFourCharacterCodes() {
        #expect(kAudioFormatLinearPCM == FourCharCode(fourCC: "lpcm"))
        #expect(kAudioFormatMPEG4AAC == FourCharCode(fourCC: "aac "))
        #expect(kAudioFormatMPEG4AAC_HE == FourCharCode(fourCC: "aach"))
        #expect(kAudioFormatAppleLossless == FourCharCode(fourCC: "alac"))
        #expect(kAudioFormatOpus == FourCharCode(fourCC: "opus"))
        #expect(kAudioFormatFLAC == FourCharCode(fourCC: "flac"))
        #expect(kAudioFormatMPEGLayer3 == FourCharCode(fourCC: ".mp3"))
        #expect(kAudioFormatULaw == FourCharCode(fourCC: "ulaw"))
        #expect(kAudioFormatALaw == FourCharCode(fourCC: "alaw"))
        #expect(kAudioFormatAC3 == FourCharCode(fourCC: "ac-3"))
        #expect(kAudioFormatEnhancedAC3 == FourCharCode(fourCC: "ec-3"))
    }

    @Test func formatFlagsHaveApplesBits() {
        #expect(kAudioFormatFlagIsFloat == 1)
        #expect(kAudioFormatFlagIsBigEndian == 2)
        #expect(kAudioFormatFlagIsSignedInteger == 4)
        #expect(kAudioFormatFlagIsPacked == 8)
        #expect(kAudioFormatFlagIsNonInterleaved == 32)
        #expect(kLinearPCMFormatFlagIsSignedInteger == kAudioFormatFlagIsSignedInteger)
        // Little-endian machine: native float packed is float | packed.
        #expect(kAudioFormatFlagsNativeFloatPacked == 9)
    }

    @Test func layoutTagsCarryTheirChannelCount() {
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_Mono) == 1)
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_Stereo) == 2)
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_Quadraphonic) == 4)
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_MPEG_5_1_A) == 6)
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_MPEG_7_1_A) == 8)
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_DiscreteInOrder | 11) == 11)
        #expect(kAudioChannelLayoutTag_Stereo == (101 << 16) | 2)
        #expect(kAudioChannelLayoutTag_MPEG_5_1_A == (121 << 16) | 6)
        #expect(kAudioChannelLayoutTag_UseChannelBitmap == 1 << 16)
    }

    @Test func layoutHasCsMemoryLayout() {
        // Apple's C struct: three UInt32 fields then 20-byte descriptions.
        #expect(MemoryLayout<AudioChannelDescription>.stride == 20)
        #expect(MemoryLayout<AudioChannelLayout>.offset(of: \AudioChannelLayout.mChannelDescriptions) == 12)
        #expect(MemoryLayout<AudioStreamBasicDescription>.size == 40)
    }
}
