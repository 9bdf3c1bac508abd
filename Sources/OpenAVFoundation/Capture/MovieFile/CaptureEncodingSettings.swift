import Foundation
import OpenCoreMedia

/// The encoder settings that suit a capture input's format: the defaults of
/// `AVCaptureMovieFileOutput`, and what the data outputs recommend for `AVAssetWriter`.
enum CaptureEncodingSettings {
    /// Video settings for a camera's or a screen's input: `codec` at the camera's active size
    /// and frame rate (the screen's delivered size and `minFrameDuration`), a bit rate from
    /// `AVOutputSettingsAssistant`'s table for that size, a key frame every second; empty for
    /// an input without video.
    static func video(for input: AVCaptureInput?, codec: AVVideoCodecType) -> [String: Any] {
        let source: (format: CMFormatDescription, frameDuration: CMTime)?
        switch input {
        case let deviceInput as AVCaptureDeviceInput:
            let device = deviceInput.device
            source = device.activeFormat.video == nil ? nil : (device.activeFormat.formatDescription, device.activeVideoMinFrameDuration)
        case let screenInput as AVCaptureScreenInput:
            source = screenInput.ports.first?.formatDescription.map { ($0, screenInput.minFrameDuration) }
        default:
            source = nil
        }
        guard let source else { return [:] }
        let video = CMVideoFormatDescriptionGetDimensions(source.format)
        let presets: [(AVOutputSettingsPreset, Int, Int)] = [
            (.preset640x480, 640, 480), (.preset960x540, 960, 540), (.preset1280x720, 1280, 720),
            (.preset1920x1080, 1920, 1080),
        ]
        let preset = presets.first { video.width <= $0.1 && video.height <= $0.2 }?.0 ?? .preset3840x2160
        guard let assistant = AVOutputSettingsAssistant(preset: preset) else { return [:] }
        assistant.sourceVideoFormat = source.format
        assistant.sourceVideoAverageFrameDuration = source.frameDuration
        assistant.sourceVideoMinFrameDuration = source.frameDuration
        guard var settings = assistant.videoSettings else { return [:] }
        var compression = settings[AVVideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        compression[AVVideoMaxKeyFrameIntervalDurationKey] = 1
        if codec != .h264 { compression[AVVideoProfileLevelKey] = nil }
        settings[AVVideoCompressionPropertiesKey] = compression
        settings[AVVideoCodecKey] = codec.rawValue
        return settings
    }

    /// Audio settings for a microphone: AAC at its sample rate and channel count, 64 kbit/s a
    /// channel; empty for a device without audio.
    static func audio(for device: AVCaptureDevice) -> [String: Any] {
        guard let audio = device.activeFormat.captureFormat.audio else { return [:] }
        return [
            AVFormatIDKey: kAudioFormatMPEG4AAC,
            AVSampleRateKey: audio.sampleRate,
            AVNumberOfChannelsKey: audio.channelCount,
            AVEncoderBitRateKey: 64_000 * audio.channelCount,
        ]
    }
}
