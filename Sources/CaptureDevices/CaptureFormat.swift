import OpenCoreMedia
import OpenCoreVideo

/// What a capture device produces.
package enum CaptureMediaKind: String, Sendable, Hashable {
    /// Pixel buffers (cameras, screens).
    case video
    /// Linear PCM sample buffers (microphones).
    case audio
}

/// A range of frame durations a video format supports, as `AVFrameRateRange` describes one:
/// the shortest duration is the highest rate.
package struct CaptureFrameRateRange: Hashable, Sendable, CustomStringConvertible {
    /// The shortest frame duration (the highest frame rate).
    package var minFrameDuration: CMTime
    /// The longest frame duration (the lowest frame rate).
    package var maxFrameDuration: CMTime

    /// A range from the shortest to the longest frame duration.
    package init(minFrameDuration: CMTime, maxFrameDuration: CMTime) {
        self.minFrameDuration = minFrameDuration
        self.maxFrameDuration = maxFrameDuration
    }

    /// A range of whole frame rates, `minRate...maxRate` frames per second.
    package init(minRate: Int32, maxRate: Int32) {
        self.init(minFrameDuration: CMTime(value: 1, timescale: maxRate),
                  maxFrameDuration: CMTime(value: 1, timescale: minRate))
    }

    /// The highest frame rate, in frames per second.
    package var maxFrameRate: Double { 1 / minFrameDuration.seconds }
    /// The lowest frame rate, in frames per second.
    package var minFrameRate: Double { 1 / maxFrameDuration.seconds }

    /// Whether a frame duration lies in the range (bounds included).
    package func contains(_ frameDuration: CMTime) -> Bool {
        frameDuration.isNumeric && frameDuration >= minFrameDuration && frameDuration <= maxFrameDuration
    }

    package var description: String { "\(minFrameRate.formatted1)-\(maxFrameRate.formatted1) fps" }
}

/// One format of a video device: pixel format (or codec), dimensions and frame rates.
package struct CaptureVideoFormat: Hashable, Sendable, CustomStringConvertible {
    /// The pixel format of delivered pictures (`kCVPixelFormatType_…`); for a format with a
    /// `codecType`, that of the decoded pictures.
    package var pixelFormat: OSType
    /// The codec of a camera that sends its frames compressed and can deliver them so
    /// (`kCMVideoCodecType_H264`), or nil. Such a format is described by its codec, as Apple's
    /// cameras describe their native formats; its frames come as `.compressedVideo` samples.
    package var codecType: OSType?
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// The frame durations the format supports.
    package var frameRateRanges: [CaptureFrameRateRange]
    /// The V4L2 pixel format (`V4L2_PIX_FMT_…` four-character code) the camera is asked for, which
    /// the backend converts to `pixelFormat`; nil for devices that are not V4L2 cameras. Two
    /// formats of one camera may deliver the same `pixelFormat` and size from different V4L2
    /// formats (YUYV and NV12, both delivered as `'420v'`).
    package var v4l2PixelFormat: UInt32?

    /// The exposure durations a custom exposure may use, when the camera has exposure control.
    package var exposureDurations: ClosedRange<CMTime>?
    /// The ISOs a custom exposure may use, when the camera has exposure control.
    package var isos: ClosedRange<Float>?
    /// The largest zoom factor (1: no zoom).
    package var maxZoomFactor: Double
    /// The horizontal field of view, in degrees (0 when unknown).
    package var fieldOfView: Float

    /// A video format.
    package init(pixelFormat: OSType, width: Int, height: Int, frameRateRanges: [CaptureFrameRateRange],
                 exposureDurations: ClosedRange<CMTime>? = nil, isos: ClosedRange<Float>? = nil,
                 maxZoomFactor: Double = 1, fieldOfView: Float = 0, v4l2PixelFormat: UInt32? = nil,
                 codecType: OSType? = nil) {
        self.pixelFormat = pixelFormat
        self.codecType = codecType
        self.width = width
        self.height = height
        self.frameRateRanges = frameRateRanges
        self.exposureDurations = exposureDurations
        self.isos = isos
        self.maxZoomFactor = maxZoomFactor
        self.fieldOfView = fieldOfView
        self.v4l2PixelFormat = v4l2PixelFormat
    }

    /// Whether a frame duration is in one of the format's ranges.
    package func supports(frameDuration: CMTime) -> Bool {
        frameRateRanges.contains { $0.contains(frameDuration) }
    }

    /// The frame duration used when none is asked for: 30 fps if supported, else the highest rate.
    package var defaultFrameDuration: CMTime {
        let thirty = CMTime(value: 1, timescale: 30)
        if supports(frameDuration: thirty) { return thirty }
        return frameRateRanges.map(\.minFrameDuration).min() ?? thirty
    }

    /// A video format description of the format: its codec, else its pixel format.
    package var formatDescription: CMFormatDescription? {
        var description: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreate(allocator: nil, codecType: codecType ?? pixelFormat, width: Int32(width),
                                       height: Int32(height), extensions: nil, formatDescriptionOut: &description)
        return description
    }

    package var description: String {
        let source = v4l2PixelFormat.map { " from \(V4L2PixelFormat.name(of: $0))" } ?? ""
        let kind = codecType.map { "'\($0.fourCharacterString)' (decoded: '\(pixelFormat.fourCharacterString)')" }
            ?? "'\(pixelFormat.fourCharacterString)'"
        return "\(kind)\(source) \(width)x\(height) "
            + frameRateRanges.map(\.description).joined(separator: ", ")
    }
}

/// The sample type of a PCM audio format.
package enum CaptureAudioSampleFormat: String, Hashable, Sendable {
    /// 32-bit IEEE float, native endian.
    case float32
    /// 16-bit signed integer, native endian.
    case int16
    /// 32-bit signed integer, native endian (ALSA's S32: many I2S microphones deliver only this).
    case int32

    /// Bytes of one channel sample.
    package var bytesPerSample: Int { self == .int16 ? 2 : 4 }
}

/// One format of an audio device: interleaved linear PCM at a sample rate and channel count.
package struct CaptureAudioFormat: Hashable, Sendable, CustomStringConvertible {
    /// Frames per second.
    package var sampleRate: Int
    /// Channels per frame (interleaved).
    package var channelCount: Int
    /// The sample type.
    package var sampleFormat: CaptureAudioSampleFormat

    /// An audio format.
    package init(sampleRate: Int, channelCount: Int, sampleFormat: CaptureAudioSampleFormat) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleFormat = sampleFormat
    }

    /// Bytes of one interleaved frame.
    package var bytesPerFrame: Int { channelCount * sampleFormat.bytesPerSample }

    /// CoreAudio's description: packed interleaved native-endian LPCM.
    package var audioStreamBasicDescription: AudioStreamBasicDescription {
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        flags |= sampleFormat == .float32 ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger
        return AudioStreamBasicDescription(
            mSampleRate: Double(sampleRate), mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
            mBytesPerPacket: UInt32(bytesPerFrame), mFramesPerPacket: 1, mBytesPerFrame: UInt32(bytesPerFrame),
            mChannelsPerFrame: UInt32(channelCount), mBitsPerChannel: UInt32(sampleFormat.bytesPerSample * 8),
            mReserved: 0)
    }

    /// The audio format description of the delivered sample buffers.
    package var formatDescription: CMFormatDescription {
        CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: kAudioFormatLinearPCM,
                            audioStreamBasicDescription: audioStreamBasicDescription,
                            channelLayoutTag: channelCount == 1 ? kAudioChannelLayoutTag_Mono
                                : channelCount == 2 ? kAudioChannelLayoutTag_Stereo : nil)
    }

    package var description: String { "\(sampleRate) Hz, \(channelCount) ch, \(sampleFormat.rawValue)" }
}

/// A format a capture device offers: video or audio.
package enum CaptureFormat: Hashable, Sendable, CustomStringConvertible {
    /// A video format.
    case video(CaptureVideoFormat)
    /// An audio format.
    case audio(CaptureAudioFormat)

    /// The media kind of the format.
    package var mediaKind: CaptureMediaKind {
        switch self {
        case .video: .video
        case .audio: .audio
        }
    }

    /// The video format, if this is one.
    package var video: CaptureVideoFormat? {
        if case .video(let format) = self { return format }
        return nil
    }

    /// The audio format, if this is one.
    package var audio: CaptureAudioFormat? {
        if case .audio(let format) = self { return format }
        return nil
    }

    package var description: String {
        switch self {
        case .video(let format): format.description
        case .audio(let format): format.description
        }
    }
}

extension OSType {
    /// The four-character code as text ('420v', 'BGRA').
    package var fourCharacterString: String {
        let bytes = [24, 16, 8, 0].map { UInt8((self >> $0) & 0xFF) }
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
        return "0x" + String(self, radix: 16)
    }
}

extension Double {
    fileprivate var formatted1: String {
        self == rounded() ? String(Int(self)) : String(Double(Int(self * 100)) / 100)
    }
}
