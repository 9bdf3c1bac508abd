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

    /// What the client, the device's thread and the delegate queue share, behind one lock.
    private struct State {
        weak var delegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
        /// A synchronizer's receiver, called instead of the delegate while it is set.
        var synchronizer: SynchronizedOutputsReceiver?
        var pending = BoundedQueue<(CMSampleBuffer, AVCaptureConnection)>(
            capacity: AVCaptureAudioDataOutput.maximumQueuedBufferCount, policy: .dropNewest)
        var draining = false
        /// Counts session stops, so a drain started before one delivers nothing after it.
        var generation = 0

        /// Who buffers go to, and on which queue: the synchronizer's receiver, else the delegate.
        var listener: (delegate: any AVCaptureAudioDataOutputSampleBufferDelegate, queue: DispatchQueue)? {
            if let synchronizer { return (synchronizer, synchronizer.queue) }
            guard let delegate, let queue else { return nil }
            return (delegate, queue)
        }
    }

    private let state = Locked(State())
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
        state.delegate
    }

    /// The queue the delegate is called on, or nil.
    public var sampleBufferCallbackQueue: DispatchQueue? { state.queue }

    /// Sets the delegate and the serial queue it is called on; a delegate without a queue is a
    /// programmer error. A nil delegate stops delivery.
    public func setSampleBufferDelegate(_ sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?,
                                        queue sampleBufferCallbackQueue: DispatchQueue?) {
        Misuse.check(sampleBufferDelegate == nil || sampleBufferCallbackQueue != nil, .audioDataDelegateWithoutQueue)
        state.withLock { s in
            s.delegate = sampleBufferDelegate
            s.queue = sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue
            if sampleBufferDelegate == nil { s.pending.removeAll() }
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
        let start = state.withLock { s -> (DispatchQueue, Int)? in
            guard let queue = s.listener?.queue ?? (streams.isEmpty ? nil : streams.queue),
                  case .queued = s.pending.push((buffer, connection)) else { return nil }
            guard !s.draining else { return nil }
            s.draining = true
            return (queue, s.generation)
        }
        if let (queue, generation) = start { queue.async { self.drain(on: queue, generation: generation) } }
    }

    /// Delivers the waiting buffers until none is left, on `queue`: the delegate's (which also
    /// feeds the `sampleBuffers` iterations), or the iterations' own when there is no delegate.
    /// The delegate is called only on its queue.
    private func drain(on queue: DispatchQueue, generation: Int) {
        while true {
            let next = state.withLock { s -> (CMSampleBuffer, AVCaptureConnection, (any AVCaptureAudioDataOutputSampleBufferDelegate)?)? in
                guard s.generation == generation, s.listener != nil || !streams.isEmpty,
                      let (buffer, connection) = s.pending.pop() else {
                    s.draining = false
                    return nil
                }
                return (buffer, connection, s.listener.flatMap { $0.queue === queue ? $0.delegate : nil })
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

    override func synchronize(with receiver: SynchronizedOutputsReceiver?) {
        // As a new delegate is taken: a drain under way finishes on its queue, delivering to
        // nobody, and the next one starts on the receiver's (one drain at a time: the converter
        // and pools are the drain's alone).
        state.withLock { $0.synchronizer = receiver }
    }

    override func sessionDidStopRunning() {
        state.withLock { s in
            s.generation += 1
            s.pending.removeAll()
        }
        streams.finishAll()
    }
}
