import Foundation
import CaptureDevices
import HostSystem
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
    private var pending = BoundedQueue<(CMSampleBuffer, AVCaptureConnection)>(capacity: maximumQueuedBufferCount,
                                                                             policy: .dropNewest)
    private var draining = false
    private var generation = 0
    /// The iterations of `sampleBuffers`.
    private var streams: SampleBufferStreams!

    /// An output with no delegate.
    public override init() {
        super.init()
        streams = SampleBufferStreams(of: self)
    }

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
            let delegateQueue = delegateStorage == nil ? nil : queueStorage
            guard let queue = delegateQueue ?? (streams.isEmpty ? nil : streams.queue),
                  case .queued = pending.push((buffer, connection)) else { return nil }
            guard !draining else { return nil }
            draining = true
            return (queue, generation)
        }
        if let (queue, generation) = start { queue.async { self.drain(on: queue, generation: generation) } }
    }

    /// Delivers the waiting buffers until none is left, on `queue`: the delegate's (which also
    /// feeds the `sampleBuffers` iterations), or the iterations' own when there is no delegate.
    /// The delegate is called only on its queue.
    private func drain(on queue: DispatchQueue, generation: Int) {
        while true {
            let next = lock.withLock { () -> (CMSampleBuffer, AVCaptureConnection, (any AVCaptureAudioDataOutputSampleBufferDelegate)?)? in
                guard self.generation == generation, delegateStorage != nil || !streams.isEmpty,
                      let (buffer, connection) = pending.pop() else {
                    draining = false
                    return nil
                }
                return (buffer, connection, queueStorage === queue ? delegateStorage : nil)
            }
            guard let (buffer, connection, delegate) = next else { return }
            delegate?.captureOutput(self, didOutput: buffer, from: connection)
            streams.yield(buffer)
        }
    }

    /// The audio buffers this output delivers, as an asynchronous sequence, with or without a
    /// delegate; see `AVCaptureOutput.SampleBuffers`.
    ///
    /// Linux addition.
    public var sampleBuffers: SampleBuffers {
        SampleBuffers { [self] in streams.makeIterator(capacity: Self.maximumQueuedBufferCount, policy: .dropNewest) }
    }

    override func sessionDidStopRunning() {
        lock.withLock {
            generation += 1
            pending.removeAll()
        }
        streams.finishAll()
    }
}
