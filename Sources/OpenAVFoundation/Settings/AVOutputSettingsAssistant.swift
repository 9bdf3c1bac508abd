// AVOutputSettingsAssistant: suggested writer settings for a preset, refined by the source's
// format, following the behaviour of Apple's class.

import Foundation

/// Suggests output settings (video, audio, file type) for an asset writer from a preset.
///
/// As Apple's: frame durations default to 1/30 s; with `sourceVideoFormat` set, the width and
/// height fit the source into the preset's box keeping its aspect ratio and never enlarging it;
/// with `sourceAudioFormat` set, the sample rate is never raised and the channel count follows
/// the source. Differs from Apple: the bit rates are this package's own choices (Apple's come
/// from its private export tables), scaled to the output size and frame rate when a source
/// video format is given; the audio is always AAC at up to 44.1 kHz; the HEVC presets never
/// switch to a 10-bit profile; no color properties are suggested.
open class AVOutputSettingsAssistant: NSObject {
    /// What a preset asks for.
    private struct PresetSpec {
        let codec: AVVideoCodecType
        let width: Int
        let height: Int
        let averageBitRate: Int
    }

    /// The presets this package offers, in the order `availableOutputSettingsPresets()` lists.
    private static let specs: [(AVOutputSettingsPreset, PresetSpec)] = [
        (.preset640x480, PresetSpec(codec: .h264, width: 640, height: 480, averageBitRate: 2_000_000)),
        (.preset960x540, PresetSpec(codec: .h264, width: 960, height: 540, averageBitRate: 3_500_000)),
        (.preset1280x720, PresetSpec(codec: .h264, width: 1280, height: 720, averageBitRate: 6_000_000)),
        (.preset1920x1080, PresetSpec(codec: .h264, width: 1920, height: 1080, averageBitRate: 10_000_000)),
        (.preset3840x2160, PresetSpec(codec: .h264, width: 3840, height: 2160, averageBitRate: 40_000_000)),
        (.hevc1920x1080, PresetSpec(codec: .hevc, width: 1920, height: 1080, averageBitRate: 6_000_000)),
        (.hevc1920x1080WithAlpha,
         PresetSpec(codec: .hevcWithAlpha, width: 1920, height: 1080, averageBitRate: 8_000_000)),
        (.hevc3840x2160, PresetSpec(codec: .hevc, width: 3840, height: 2160, averageBitRate: 24_000_000)),
        (.hevc3840x2160WithAlpha,
         PresetSpec(codec: .hevcWithAlpha, width: 3840, height: 2160, averageBitRate: 32_000_000)),
        (.hevc7680x4320, PresetSpec(codec: .hevc, width: 7680, height: 4320, averageBitRate: 96_000_000)),
    ]

    /// The base audio sample rate in hertz.
    private static let audioSampleRate: Double = 44_100
    /// The audio bit rate per channel in bits per second (128 kbit/s for stereo).
    private static let audioBitRatePerChannel = 64_000

    /// The preset's parameters.
    private let spec: PresetSpec

    /// The presets that can create an assistant.
    open class func availableOutputSettingsPresets() -> [AVOutputSettingsPreset] {
        specs.map(\.0)
    }

    /// Creates an assistant for a preset, or nil when the preset is not one of
    /// `availableOutputSettingsPresets()`.
    public init?(preset presetIdentifier: AVOutputSettingsPreset) {
        guard let spec = Self.specs.first(where: { $0.0 == presetIdentifier })?.1 else { return nil }
        self.spec = spec
        super.init()
    }

    /// The type of file to write: QuickTime movie for every preset.
    open var outputFileType: AVFileType { .mov }

    /// The format of the source video; when set, `videoSettings` fit its size without enlarging it.
    open var sourceVideoFormat: CMVideoFormatDescription?

    /// The format of the source audio; when set, `audioSettings` follow its rate and channels.
    open var sourceAudioFormat: CMAudioFormatDescription?

    /// The source video's average frame duration (default 1/30 s); used for the bit rate.
    ///
    /// Setting a non-numeric or non-positive time is a programmer error, as on Apple platforms.
    open var sourceVideoAverageFrameDuration: CMTime = CMTimeMake(value: 1, timescale: 30) {
        didSet {
            let time = sourceVideoAverageFrameDuration
            guard time.isNumeric, time > .zero else {
                Misuse.fail(.averageFrameDurationNotPositive)
            }
        }
    }

    /// The source video's shortest frame duration (default 1/30 s); gives the expected frame rate.
    ///
    /// Setting a non-numeric or non-positive time is a programmer error, as on Apple platforms.
    open var sourceVideoMinFrameDuration: CMTime = CMTimeMake(value: 1, timescale: 30) {
        didSet {
            let time = sourceVideoMinFrameDuration
            guard time.isNumeric, time > .zero else {
                Misuse.fail(.minFrameDurationNotPositive)
            }
        }
    }

    /// Suggested video settings: codec, size, scaling mode and compression properties.
    open var videoSettings: [String: Any]? {
        var width = spec.width
        var height = spec.height
        var bitRate = Double(spec.averageBitRate)
        if let format = sourceVideoFormat {
            let source = CMVideoFormatDescriptionGetDimensions(format)
            (width, height) = Self.fit(sourceWidth: Int(source.width), sourceHeight: Int(source.height),
                                       intoWidth: spec.width, height: spec.height)
            let area = Double(width * height) / Double(spec.width * spec.height)
            let frameRate = 1 / CMTimeGetSeconds(sourceVideoAverageFrameDuration)
            bitRate *= area * min(max(frameRate / 30, 0.5), 2)
        }
        var compression: [String: Any] = [
            AVVideoAverageBitRateKey: Int(bitRate.rounded()),
            AVVideoExpectedSourceFrameRateKey: 1 / CMTimeGetSeconds(sourceVideoMinFrameDuration),
        ]
        if spec.codec == .h264 {
            compression[AVVideoProfileLevelKey] = AVVideoProfileLevelH264HighAutoLevel
        }
        return [
            AVVideoCodecKey: spec.codec.rawValue,
            AVVideoWidthKey: width,
            AVVideoHeightKey: height,
            AVVideoScalingModeKey: AVVideoScalingModeResizeAspect,
            AVVideoCompressionPropertiesKey: compression,
        ]
    }

    /// Suggested audio settings: AAC with a sample rate, channel count, bit rate and layout.
    open var audioSettings: [String: Any]? {
        var sampleRate = Self.audioSampleRate
        var channels = 2
        var layout: Data? = Self.layoutData(tag: kAudioChannelLayoutTag_Stereo)
        if let format = sourceAudioFormat,
           let asbd = CMAudioFormatDescriptionGetStreamBasicDescription(format)?.pointee {
            if asbd.mSampleRate > 0 { sampleRate = min(sampleRate, asbd.mSampleRate) }
            if asbd.mChannelsPerFrame > 0 { channels = Int(asbd.mChannelsPerFrame) }
            var size = 0
            if let pointer = CMAudioFormatDescriptionGetChannelLayout(format, sizeOut: &size), size > 0 {
                layout = Data(bytes: pointer, count: size)
            } else {
                layout = channels == 1 ? Self.layoutData(tag: kAudioChannelLayoutTag_Mono)
                    : channels == 2 ? Self.layoutData(tag: kAudioChannelLayoutTag_Stereo) : nil
            }
        }
        var settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatMPEG4AAC,
            AVSampleRateKey: sampleRate,
            AVNumberOfChannelsKey: channels,
            AVEncoderBitRateKey: Self.audioBitRatePerChannel * channels,
        ]
        if let layout { settings[AVChannelLayoutKey] = layout }
        return settings
    }

    /// The largest size with the source's aspect ratio that fits the box, or the source's own
    /// size when that would enlarge it (the arithmetic of Apple's assistant, in whole pixels).
    static func fit(sourceWidth: Int, sourceHeight: Int, intoWidth boxWidth: Int, height boxHeight: Int)
        -> (width: Int, height: Int) {
        guard sourceWidth > 0, sourceHeight > 0 else { return (boxWidth, boxHeight) }
        var width = sourceWidth * boxHeight / sourceHeight
        var height = boxHeight
        if boxWidth * sourceHeight < boxHeight * sourceWidth {
            height = sourceHeight * boxWidth / sourceWidth
            width = boxWidth
        }
        if width > sourceWidth || height > sourceHeight { return (sourceWidth, sourceHeight) }
        return (width, height)
    }

    /// An `AudioChannelLayout` holding only a layout tag, as `Data` of the C struct's size.
    private static func layoutData(tag: AudioChannelLayoutTag) -> Data {
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = tag
        return withUnsafeBytes(of: &layout) { Data($0) }
    }
}
