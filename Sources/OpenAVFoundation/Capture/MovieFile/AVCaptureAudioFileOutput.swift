import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia

/// A capture output that records a session's audio to sound files: MPEG-4 audio (M4A), Core
/// Audio (CAF) or WAVE.
///
/// The file holds the microphone's sound from the first buffer after the recording starts to
/// the last before it stops, by the same recording machinery as `AVCaptureMovieFileOutput`
/// (limits, pauses, the delegate's calls, never overwriting a file, a finished file when the
/// microphone goes away or the disk fills). Encoded as `audioSettings` say, or by default as
/// AAC (M4A; 64 kbit/s a channel), Apple Lossless (CAF: FFmpeg's CAF writer takes no AAC) or
/// 16-bit linear PCM (WAVE), at the microphone's sample rate and channel count.
///
/// Apple has this output on macOS only. Differs from Apple: AIFF is not offered, and `metadata`
/// is written as the container's tags (ID3 for none of these types).
public final class AVCaptureAudioFileOutput: AVCaptureFileOutput, @unchecked Sendable {
    private struct State {
        var audioSettings: [String: Any]?
        var metadata: [AVMetadataItem] = []
        /// The file types asked for by `startRecording(to:outputFileType:recordingDelegate:)`,
        /// until the recording's plan takes them.
        var requestedTypes: [URL: AVFileType] = [:]
    }

    private let state = Locked(State())

    /// An audio file output with the default settings.
    public override init() { super.init() }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .audio }

    /// The file types a recording can write: M4A, CAF and WAVE.
    public class func availableOutputFileTypes() -> [AVFileType] { [.m4a, .caf, .wav] }

    /// The settings the sound is encoded with (`AVFormatIDKey`, `AVSampleRateKey`,
    /// `AVNumberOfChannelsKey`, `AVEncoderBitRateKey`, `AVLinearPCMBitDepthKey`…); nil (the
    /// default) for the file type's default. Read when a recording starts.
    public var audioSettings: [String: Any]! {
        get { state.audioSettings }
        set { state.audioSettings = newValue }
    }

    /// Metadata written to each file. Read when a recording starts.
    public var metadata: [AVMetadataItem] {
        get { state.metadata }
        set { state.metadata = newValue }
    }

    /// Starts recording to `outputFileURL` as `fileType` (one of `availableOutputFileTypes()`),
    /// as `startRecording(to:recordingDelegate:)` does; that one takes the type from the file's
    /// extension (M4A when it names none of them).
    public func startRecording(to outputFileURL: URL, outputFileType fileType: AVFileType,
                               recordingDelegate delegate: any AVCaptureFileOutputRecordingDelegate) {
        state.withLock { $0.requestedTypes[outputFileURL] = fileType }
        startRecording(to: outputFileURL, recordingDelegate: delegate)
    }

    override func recordingPlan(for connections: [AVCaptureConnection], to url: URL, maxDuration: CMTime, maxFileSize: Int64,
                                minFreeDiskSpace: Int64) throws(AVError) -> CaptureRecording.Plan {
        let (requested, settings, metadata) = state.withLock { s in
            (s.requestedTypes.removeValue(forKey: url), s.audioSettings, s.metadata)
        }
        let fileType = requested
            ?? Self.availableOutputFileTypes().first { $0.pathExtensions.contains(url.pathExtension.lowercased()) } ?? .m4a
        guard Self.availableOutputFileTypes().contains(fileType), let muxer = fileType.ffmpegMuxerName else {
            throw AVError(.unsupportedOutputSettings, reason: "an audio file output writes \(Self.availableOutputFileTypes().map(\.rawValue)), not \(fileType.rawValue)")
        }
        var plan = CaptureRecording.Plan(
            video: nil, audio: nil,
            options: Muxer.Options(metadata: MetadataTags.ffmpegTags(of: metadata), usesMetadataKeys: false),
            maxDuration: maxDuration, maxFileSize: maxFileSize, minFreeDiskSpace: minFreeDiskSpace)
        plan.fileType = muxer
        guard let connection = connections.first(where: { $0.mediaTypes.contains(.audio) }),
              let device = (connection.inputPorts.first?.input as? AVCaptureDeviceInput)?.device else { return plan }
        var chosen = settings ?? CaptureEncodingSettings.audio(for: device)
        if settings == nil, fileType != .m4a {
            chosen[AVEncoderBitRateKey] = nil
            if fileType == .wav {
                chosen[AVFormatIDKey] = kAudioFormatLinearPCM
                chosen[AVLinearPCMBitDepthKey] = 16
            } else {
                chosen[AVFormatIDKey] = kAudioFormatAppleLossless
                chosen[AVEncoderBitDepthHintKey] = 16
            }
        }
        do throws(SettingsProblem) {
            plan.audio = try WriterOutputSettings.encoderSettings(chosen, mediaType: .audio)
        } catch {
            throw AVError(.unsupportedOutputSettings, reason: error.description)
        }
        return plan
    }
}
