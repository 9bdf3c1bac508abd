import Foundation
import Testing
@testable import OpenAVFoundation

/// The video settings keys, values and codec types with Apple's strings.
@Suite("AVVideoSettings", .timeLimit(.minutes(10)))
struct AVVideoSettingsTests {
    @Test("Top-level keys and scaling modes are Apple's strings")
    func topLevelKeys() {
        #expect(AVVideoCodecKey == "AVVideoCodecKey")
        #expect(AVVideoWidthKey == "AVVideoWidthKey")
        #expect(AVVideoHeightKey == "AVVideoHeightKey")
        #expect(AVVideoPixelAspectRatioKey == "AVVideoPixelAspectRatioKey")
        #expect(AVVideoCleanApertureKey == "AVVideoCleanApertureKey")
        #expect(AVVideoScalingModeKey == "AVVideoScalingModeKey")
        #expect(AVVideoAllowWideColorKey == "AVVideoAllowWideColorKey")
        #expect(AVVideoCompressionPropertiesKey == "AVVideoCompressionPropertiesKey")
        #expect(AVVideoDecompressionPropertiesKey == "AVVideoDecompressionPropertiesKey")
        #expect(AVVideoScalingModeFit == "AVVideoScalingModeFit")
        #expect(AVVideoScalingModeResize == "AVVideoScalingModeResize")
        #expect(AVVideoScalingModeResizeAspect == "AVVideoScalingModeResizeAspect")
        #expect(AVVideoScalingModeResizeAspectFill == "AVVideoScalingModeResizeAspectFill")
    }

    @Test("Compression property keys are the encoder's property names")
    func compressionKeys() {
        #expect(AVVideoAverageBitRateKey == "AverageBitRate")
        #expect(AVVideoQualityKey == "Quality")
        #expect(AVVideoMaxKeyFrameIntervalKey == "MaxKeyFrameInterval")
        #expect(AVVideoMaxKeyFrameIntervalDurationKey == "MaxKeyFrameIntervalDuration")
        #expect(AVVideoAllowFrameReorderingKey == "AllowFrameReordering")
        #expect(AVVideoProfileLevelKey == "ProfileLevel")
        #expect(AVVideoH264EntropyModeKey == "H264EntropyMode")
        #expect(AVVideoExpectedSourceFrameRateKey == "ExpectedFrameRate")
        #expect(AVVideoAverageNonDroppableFrameRateKey == "AverageNonDroppableFrameRate")
        #expect(AVVideoH264EntropyModeCAVLC == "CAVLC")
        #expect(AVVideoH264EntropyModeCABAC == "CABAC")
    }

    @Test("H.264 profile-level values follow H264_<Profile>_<Level>")
    func profileLevels() {
        let values = [AVVideoProfileLevelH264Baseline30, AVVideoProfileLevelH264Baseline31,
                      AVVideoProfileLevelH264Baseline41, AVVideoProfileLevelH264BaselineAutoLevel,
                      AVVideoProfileLevelH264Main30, AVVideoProfileLevelH264Main31, AVVideoProfileLevelH264Main32,
                      AVVideoProfileLevelH264Main41, AVVideoProfileLevelH264MainAutoLevel,
                      AVVideoProfileLevelH264High40, AVVideoProfileLevelH264High41,
                      AVVideoProfileLevelH264HighAutoLevel]
        #expect(values == ["H264_Baseline_3_0", "H264_Baseline_3_1", "H264_Baseline_4_1", "H264_Baseline_AutoLevel",
                           "H264_Main_3_0", "H264_Main_3_1", "H264_Main_3_2", "H264_Main_4_1", "H264_Main_AutoLevel",
                           "H264_High_4_0", "H264_High_4_1", "H264_High_AutoLevel"])
    }

    @Test("Color property keys and values are Apple's strings")
    func colorProperties() {
        #expect(AVVideoColorPropertiesKey == "AVVideoColorPropertiesKey")
        #expect([AVVideoColorPrimariesKey, AVVideoTransferFunctionKey, AVVideoYCbCrMatrixKey]
            == ["ColorPrimaries", "TransferFunction", "YCbCrMatrix"])
        #expect([AVVideoColorPrimaries_ITU_R_709_2, AVVideoColorPrimaries_SMPTE_C, AVVideoColorPrimaries_P3_D65,
                 AVVideoColorPrimaries_ITU_R_2020] == ["ITU_R_709_2", "SMPTE_C", "P3_D65", "ITU_R_2020"])
        #expect([AVVideoTransferFunction_ITU_R_709_2, AVVideoTransferFunction_SMPTE_ST_2084_PQ,
                 AVVideoTransferFunction_ITU_R_2100_HLG, AVVideoTransferFunction_Linear]
            == ["ITU_R_709_2", "SMPTE_ST_2084_PQ", "ITU_R_2100_HLG", "Linear"])
        #expect([AVVideoYCbCrMatrix_ITU_R_709_2, AVVideoYCbCrMatrix_ITU_R_601_4, AVVideoYCbCrMatrix_ITU_R_2020]
            == ["ITU_R_709_2", "ITU_R_601_4", "ITU_R_2020"])
    }

    @Test("Codec types and the older codec strings are Apple's four-character codes")
    func codecTypes() {
        let types: [AVVideoCodecType] = [.h264, .hevc, .hevcWithAlpha, .jpeg, .proRes422, .proRes422HQ,
                                         .proRes422LT, .proRes422Proxy, .proRes4444]
        #expect(types.map(\.rawValue) == ["avc1", "hvc1", "muxa", "jpeg", "apcn", "apch", "apcs", "apco", "ap4h"])
        #expect(Set(types).count == types.count)
        #expect(AVVideoCodecType(rawValue: "avc1") == .h264)
        #expect(AVVideoCodecType(rawValue: "hvc1") == .hevc)
        #expect(AVVideoCodecH264 == AVVideoCodecType.h264.rawValue)
        #expect(AVVideoCodecJPEG == AVVideoCodecType.jpeg.rawValue)
        #expect(AVVideoCodecHEVC == AVVideoCodecType.hevc.rawValue)
        #expect(AVVideoCodecAppleProRes4444 == "ap4h")
        #expect(AVVideoCodecAppleProRes422 == "apcn")
    }

    @Test("A settings dictionary written the way Apple's samples write it reads back")
    func dictionaryShape() {
        let settings: [String: Any] = [
            AVVideoCodecKey: AVVideoCodecType.h264,
            AVVideoWidthKey: 1280,
            AVVideoHeightKey: 720,
            AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: 6_000_000,
                                              AVVideoProfileLevelKey: AVVideoProfileLevelH264HighAutoLevel],
        ]
        #expect(settings[AVVideoCodecKey] as? AVVideoCodecType == .h264)
        let compression = settings[AVVideoCompressionPropertiesKey] as? [String: Any]
        #expect(compression?["AverageBitRate"] as? Int == 6_000_000)
        #expect(compression?["ProfileLevel"] as? String == "H264_High_AutoLevel")
    }
}
