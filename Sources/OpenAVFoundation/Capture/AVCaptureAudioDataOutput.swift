import Foundation
import CaptureDevices
import OpenCoreMedia

/// A capture output that delivers audio sample buffers to a delegate, on its queue.
///
/// The buffers are the microphone's linear PCM (10 ms each by default), with host-clock
/// timestamps unchanged. Between the device's thread and the delegate's queue is a bounded
/// queue of `maximumQueuedBufferCount` buffers; when a slow delegate lets it fill, newer
/// buffers are dropped (Apple reports no audio drops either). `audioSettings` (macOS) is not
/// available yet.
public final class AVCaptureAudioDataOutput: AVCaptureOutput, @unchecked Sendable {
    /// How many buffers wait for a busy delegate before newer ones are dropped (half a second
    /// of 10 ms buffers).
    ///
    /// Linux addition: Apple does not say how many.
    public static let maximumQueuedBufferCount = 50

    private let lock = NSLock()
    private weak var delegateStorage: (any AVCaptureAudioDataOutputSampleBufferDelegate)?
    private var queueStorage: DispatchQueue?
    private var pending: [(CMSampleBuffer, AVCaptureConnection)] = []
    private var draining = false
    private var generation = 0

    /// An output with no delegate.
    public override init() { super.init() }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .audio }

    /// The delegate (held weakly), or nil.
    public var sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)? {
        lock.withLock { delegateStorage }
    }

    /// The queue the delegate is called on, or nil.
    public var sampleBufferCallbackQueue: DispatchQueue? { lock.withLock { queueStorage } }

    /// Sets the delegate and the serial queue it is called on; a delegate without a queue is a
    /// programmer error. A nil delegate stops delivery.
    public func setSampleBufferDelegate(_ sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?,
                                        queue sampleBufferCallbackQueue: DispatchQueue?) {
        precondition(sampleBufferDelegate == nil || sampleBufferCallbackQueue != nil,
                     "AVCaptureAudioDataOutput.setSampleBufferDelegate(_:queue:) needs a queue with a delegate")
        lock.withLock {
            delegateStorage = sampleBufferDelegate
            queueStorage = sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue
            if sampleBufferDelegate == nil { pending.removeAll() }
        }
    }

    /// Audio settings for an `AVAssetWriterInput` recording this output's audio to a file type:
    /// AAC at the microphone's sample rate and channel count (what `AVCaptureMovieFileOutput`
    /// records); nil for a file type other than a movie or M4A, or when the output has no
    /// microphone connected.
    public func recommendedAudioSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        guard [.mov, .mp4, .m4v, .m4a].contains(outputFileType),
              let device = (connection(with: .audio)?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device else { return nil }
        let settings = CaptureEncodingSettings.audio(for: device)
        return settings.isEmpty ? nil : settings
    }

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        guard let buffer = sample.sampleBuffer else { return }
        let start = lock.withLock { () -> (DispatchQueue, Int)? in
            guard let queue = queueStorage, delegateStorage != nil,
                  pending.count < Self.maximumQueuedBufferCount else { return nil }
            pending.append((buffer, connection))
            guard !draining else { return nil }
            draining = true
            return (queue, generation)
        }
        if let (queue, generation) = start { queue.async { self.drain(generation: generation) } }
    }

    /// Delivers the waiting buffers, on the delegate queue, until none is left.
    private func drain(generation: Int) {
        while true {
            let next = lock.withLock { () -> (CMSampleBuffer, AVCaptureConnection, any AVCaptureAudioDataOutputSampleBufferDelegate)? in
                guard self.generation == generation, let delegate = delegateStorage, !pending.isEmpty else {
                    draining = false
                    return nil
                }
                let (buffer, connection) = pending.removeFirst()
                return (buffer, connection, delegate)
            }
            guard let (buffer, connection, delegate) = next else { return }
            delegate.captureOutput(self, didOutput: buffer, from: connection)
        }
    }

    override func sessionDidStopRunning() {
        lock.withLock {
            generation += 1
            pending.removeAll()
        }
    }
}
