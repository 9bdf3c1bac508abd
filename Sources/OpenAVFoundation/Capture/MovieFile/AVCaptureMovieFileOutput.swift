import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia

/// A capture output that records video and audio to QuickTime movie files.
///
/// Video is encoded as H.264 (or HEVC, through `setOutputSettings(_:for:)`) at the camera's
/// size and frame rate, audio as AAC at the microphone's sample rate and channel count, by the
/// same writer as `AVAssetWriter`. By default the file is written in movie fragments every 10
/// seconds (`movieFragmentInterval`), each flushed to disk as it completes, so that a process
/// killed mid-recording leaves a movie playable up to its last fragment. It works side by side
/// with data and photo outputs on the same session.
///
/// A camera that sends H.264 (an active format whose media subtype is `'avc1'`) is recorded
/// without re-encoding when the video connection's output settings are an empty dictionary
/// (Apple: "the format of the media shouldn't change"): its frames are stored as they come, and
/// the camera need not decode them. The file then starts at a key frame and a recording asked to
/// stop ends at the next key frame (the next recording on the output begins with it), so that
/// every frame in the file can be decoded.
///
/// Differs from Apple: `metadata` is read when a recording starts (Apple also takes changes
/// made while recording); an empty output settings dictionary for a camera that sends
/// pictures, or for a microphone, means the default settings, since raw frames make no sensible movie.
public final class AVCaptureMovieFileOutput: AVCaptureFileOutput, @unchecked Sendable {
    /// What the client sets, read together when a recording starts, behind one lock.
    private struct State {
        var movieFragmentInterval = CMTime(value: 10, timescale: 1)
        var metadata: [AVMetadataItem]?
        /// Output settings set per connection.
        var settings: [ObjectIdentifier: [String: Any]] = [:]
    }

    private let state = Locked(State())

    /// A movie file output with the default settings.
    public override init() { super.init() }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video || mediaType == .audio }

    /// How much media each movie fragment holds; `.invalid` writes one movie header at the end
    /// instead (a file killed mid-recording is then unreadable). Default 10 seconds. Read when a
    /// recording starts.
    public var movieFragmentInterval: CMTime {
        get { state.movieFragmentInterval }
        set { state.movieFragmentInterval = newValue }
    }

    /// Metadata written to each movie file (title, location, creation date, …).
    public var metadata: [AVMetadataItem]? {
        get { state.metadata }
        set { state.metadata = newValue }
    }

    /// The video codecs a recording can use; the first is the default.
    public var availableVideoCodecTypes: [AVVideoCodecType] { [.h264, .hevc] }

    /// The keys `setOutputSettings(_:for:)` takes for a connection's media type.
    public func supportedOutputSettingsKeys(for connection: AVCaptureConnection) -> [String] {
        if connection.mediaTypes.contains(.video) {
            return [AVVideoCodecKey, AVVideoWidthKey, AVVideoHeightKey, AVVideoCompressionPropertiesKey,
                    AVVideoColorPropertiesKey]
        }
        return [AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVChannelLayoutKey, AVEncoderBitRateKey]
    }

    /// The settings that encode a connection's media: those set with
    /// `setOutputSettings(_:for:)` (an empty dictionary: the media is not changed, when it comes
    /// compressed), or the defaults — H.264 at the camera's active size and
    /// frame rate (a screen's delivered size and `minFrameDuration`; a key frame every second), AAC at the microphone's rate and channel count.
    public func outputSettings(for connection: AVCaptureConnection) -> [String: Any] {
        if let set = state.settings[ObjectIdentifier(connection)],
           !set.isEmpty || connection.activeVideoFormat?.codecType != nil {
            return set
        }
        return defaultSettings(for: connection, codec: .h264)
    }

    /// Sets the settings that encode a connection's media in later recordings; nil restores the
    /// defaults, and an empty dictionary stores a camera's compressed frames as they are (for a
    /// camera that sends pictures, and for audio, it means the defaults). A video codec that is not in
    /// `availableVideoCodecTypes`, a connection of another output, or settings no encoder
    /// accepts are programmer errors.
    public func setOutputSettings(_ outputSettings: [String: Any]?, for connection: AVCaptureConnection) {
        Misuse.check(connection.output === self, .outputSettingsForAnotherOutputsConnection)
        guard var outputSettings else {
            state.withLock { $0.settings[ObjectIdentifier(connection)] = nil }
            return
        }
        guard !outputSettings.isEmpty else {
            state.withLock { $0.settings[ObjectIdentifier(connection)] = [:] }
            return
        }
        if connection.mediaTypes.contains(.video) {
            let codec = (outputSettings[AVVideoCodecKey] as? AVVideoCodecType)
                ?? (outputSettings[AVVideoCodecKey] as? String).map(AVVideoCodecType.init(rawValue:)) ?? .h264
            Misuse.check(availableVideoCodecTypes.contains(codec), .outputSettingsCodecNotAvailable)
            // Keys left out take the defaults (the camera's size).
            outputSettings.merge(defaultSettings(for: connection, codec: codec)) { set, _ in set }
        }
        do {
            _ = try WriterOutputSettings.encoderSettings(outputSettings, mediaType: connection.mediaTypes.contains(.video) ? .video : .audio)
        } catch {
            Misuse.fail(.outputSettingsNotAccepted(reason: error.description))
        }
        state.withLock { $0.settings[ObjectIdentifier(connection)] = outputSettings }
    }

    /// The default settings for a connection's input (a camera, a screen, a microphone).
    private func defaultSettings(for connection: AVCaptureConnection, codec: AVVideoCodecType) -> [String: Any] {
        let input = connection.inputPorts.first?.input
        if connection.mediaTypes.contains(.video) {
            return CaptureEncodingSettings.video(for: input, codec: codec)
        }
        return ((input as? AVCaptureDeviceInput)?.device).map(CaptureEncodingSettings.audio(for:)) ?? [:]
    }

    override func recordingPlan(for connections: [AVCaptureConnection], to url: URL, maxDuration: CMTime, maxFileSize: Int64,
                                minFreeDiskSpace: Int64) throws(AVError) -> CaptureRecording.Plan {
        let (interval, metadata) = state.withLock { ($0.movieFragmentInterval, $0.metadata) }
        var plan = CaptureRecording.Plan(
            video: nil, audio: nil,
            options: Muxer.Options(movieFragmentInterval: interval.isNumeric && interval > .zero ? interval : nil,
                                   metadata: MetadataTags.ffmpegTags(of: metadata ?? []),
                                   usesMetadataKeys: MetadataTags.usesQuickTimeMetadata(metadata ?? [])),
            maxDuration: maxDuration, maxFileSize: maxFileSize, minFreeDiskSpace: minFreeDiskSpace)
        for connection in connections {
            let isVideo = connection.mediaTypes.contains(.video)
            let chosen = outputSettings(for: connection)
            // Empty only for a camera that sends H.264: its frames are stored as they come.
            if isVideo && chosen.isEmpty {
                plan.storesCompressedVideo = true
                if let format = connection.activeVideoFormat {
                    plan.videoTransform = Self.displayTransform(of: connection, width: format.width, height: format.height)
                }
                continue
            }
            do throws(SettingsProblem) {
                let settings = try WriterOutputSettings.encoderSettings(chosen, mediaType: isVideo ? .video : .audio)
                if isVideo {
                    plan.video = settings
                    if case .video(var video) = settings {
                        plan.videoTransform = Self.displayTransform(of: connection, width: video.width, height: video.height)
                        // The encoder takes the camera's own pixels when it can: no conversion
                        // between the device's buffer and the codec (one at most otherwise).
                        if video.pixelFormat == nil, let source = connection.activeVideoFormat?.pixelFormat {
                            video.pixelFormat = Encoder.preferredPixelFormat(for: video.codec, source: source)
                            plan.video = .video(video)
                        }
                    }
                } else {
                    plan.audio = settings
                }
            } catch {
                throw AVError(.unsupportedOutputSettings, reason: error.description)
            }
        }
        return plan
    }

    /// The track transform that shows a connection's video as its orientation and mirroring
    /// say (as Apple records it: the pixels stay as the camera gives them); nil when upright.
    private static func displayTransform(of connection: AVCaptureConnection, width: Int, height: Int) -> CGAffineTransform? {
        let turn = connection.videoTurn
        return turn.isIdentity ? nil : turn.transform(width: width, height: height)
    }
}
