import CV4L2
import Testing
import OpenCoreMedia
@testable import CaptureDevices

/// The parts of format enumeration vivid cannot show (it lists discrete sizes only), on the host.
@Suite(.timeLimit(.minutes(10))) struct V4L2FormatEnumerationTests {
    @Test func stepwiseSizesOfferTheCommonSizesOnTheGridAndTheLargest() {
        let sizes = V4L2FormatEnumeration.sizesInRange(width: (160, 1920, 16), height: (120, 1080, 8))
        let names = sizes.map { "\($0.width)x\($0.height)" }
        // On the grid: width 160 + 16k, height 120 + 8k, up to 1920x1080.
        #expect(names == ["160x120", "320x240", "352x288", "640x360", "640x480", "800x600", "1024x768", "1280x720",
                          "1280x960", "1920x1080"])
        #expect(!names.contains("320x180"), "180 is not on the grid: (180 - 120) % 8 != 0")
    }

    @Test func continuousSizesOfferEveryCommonSizeInsideAndTheLargest() {
        let sizes = V4L2FormatEnumeration.sizesInRange(width: (1, 1000, 1), height: (1, 700, 1))
        #expect(sizes.map { "\($0.width)x\($0.height)" } == ["160x120", "320x180", "320x240", "352x288", "640x360",
                                                             "640x480", "800x600", "960x540", "1000x700"])
    }

    @Test func fourCharacterCodesRoundTrip() {
        #expect(V4L2PixelFormat.fourCC("YUYV") == 0x5659_5559)
        #expect(V4L2PixelFormat.name(of: V4L2PixelFormat.fourCC("NV12")) == "NV12")
        #expect(V4L2PixelFormat.supported(fourCC: V4L2PixelFormat.fourCC("MJPG"))?.sourcePixelFormat == nil)
        #expect(V4L2PixelFormat.supported(fourCC: V4L2PixelFormat.fourCC("H264"))?.compressedCodec == .h264)
        #expect(V4L2PixelFormat.supported(fourCC: V4L2PixelFormat.fourCC("YUYV"))?.compressedCodec == nil)
    }

    @Test func controlNamesAreSpelledAsV4L2CtlSpellsThem() {
        #expect(V4L2Control.variableName("Percentage of Dropped Buffers") == "percentage_of_dropped_buffers")
        #expect(V4L2Control.variableName("White Balance Temperature, Auto") == "white_balance_temperature_auto")
        #expect(V4L2Control.variableName("Integer 32 Bits") == "integer_32_bits")
        #expect(V4L2Control.variableName("  Gain (Automatic) ") == "gain_automatic")
    }

    @Test func fractionsBecomeExactFrameDurations() {
        #expect(V4L2FormatEnumeration.duration(v4l2_fract(numerator: 1001, denominator: 30000)) == CMTime(value: 1001, timescale: 30000))
        #expect(V4L2FormatEnumeration.duration(v4l2_fract(numerator: 0, denominator: 30)) == nil)
    }
}
