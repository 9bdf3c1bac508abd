import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia

/// A capture output that plays a session's sound on an output device as it is captured, to
/// hear a microphone (Apple has it on macOS).
///
/// Linux: the sound is played by an `AVSampleBufferAudioRenderer` of the output's own, on a
/// timebase that runs `latency` behind the host clock: each buffer is heard that long after it
/// was captured (the capture's buffers and the sound server's need that much room), converted
/// to the sink's 48 kHz stereo as it comes. The sink is `outputDeviceUniqueID` (a PulseAudio
/// sink's name, as `AVAudioSession` and `AVPlayer` name outputs), or the server's default.
public final class AVCaptureAudioPreviewOutput: AVCaptureOutput, @unchecked Sendable {
    /// How long after its capture a sound is heard.
    static let latency = CMTime(value: 60, timescale: 1000)

    private let renderer = AVSampleBufferAudioRenderer()
    private let synchronizer = AVSampleBufferRenderSynchronizer()
    /// Whether the synchronizer runs (from the first buffer after a start).
    @Locked private var isPlaying = false

    /// An output playing to the default device at full volume.
    public override init() {
        super.init()
        synchronizer.addRenderer(renderer)
    }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .audio }

    /// The unique ID of the device the sound is played on (a PulseAudio sink's name), or nil
    /// (the default) for the sound server's default sink. Takes effect when the session next
    /// starts.
    public var outputDeviceUniqueID: String? {
        get { renderer.audioOutputDeviceUniqueID }
        set { renderer.audioOutputDeviceUniqueID = newValue }
    }

    /// The volume the sound is played at, from 0 (silent) to 1 (as captured), 1 at first.
    /// Takes effect at once.
    public var volume: Float {
        get { renderer.volume }
        set { renderer.volume = newValue }
    }

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        guard let buffer = sample.sampleBuffer else { return }
        if !isPlaying {
            isPlaying = true
            let now = CMClockGetTime(CMClockGetHostTimeClock())
            synchronizer.setRate(1, time: CMTimeSubtract(now, Self.latency), atHostTime: now)
        }
        renderer.enqueue(buffer)
    }

    override func sessionDidStopRunning() {
        isPlaying = false
        synchronizer.rate = 0
        renderer.flush()
    }
}
