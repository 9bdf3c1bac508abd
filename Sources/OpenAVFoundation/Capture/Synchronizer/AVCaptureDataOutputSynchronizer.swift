import Foundation
import HostSystem
import OpenCoreMedia

/// Delivers the data of several data outputs (video, audio, metadata) at one time in one
/// delegate callback: each frame of the first output (the main one) with the audio buffer that
/// covers its time and the objects a metadata output found in it.
///
/// The first output in `dataOutputs` decides when collections are delivered: its data is held
/// until every other output has data reaching its time, or lags more than half a second behind
/// (a metadata output reads the newest frame only, so it skips frames on a slow machine), then
/// delivered with the other outputs' data at that time. The other outputs' data that no frame
/// of the main output covers is delivered first, in collections of its own; so every buffer and
/// every frame's objects are delivered once, in time order. A metadata output reports each frame
/// it read, with no objects when it found none. Frames a video output drops are delivered as
/// `AVCaptureSynchronizedSampleBufferData` with `sampleBufferWasDropped` and the reason.
///
/// While the synchronizer exists, its outputs call the synchronizer instead of their own
/// delegates (as on Apple platforms, a video output still honours
/// `alwaysDiscardsLateVideoFrames`).
public final class AVCaptureDataOutputSynchronizer: NSObject, @unchecked Sendable {
    /// The outputs synchronized, the main one first.
    public let dataOutputs: [AVCaptureOutput]

    private struct Listener {
        weak var delegate: (any AVCaptureDataOutputSynchronizerDelegate)?
        var queue: DispatchQueue?
    }

    private let listener = Locked(Listener())
    /// Receives the outputs' data on `queue`, where the aligner gathers it.
    private let receiver: SynchronizedOutputsReceiver

    /// A synchronizer of `dataOutputs` (video, audio and metadata outputs, each once), the first
    /// of which is the main output that the others are aligned to.
    public init(dataOutputs: [AVCaptureOutput]) {
        Misuse.check(!dataOutputs.isEmpty && Set(dataOutputs.map(ObjectIdentifier.init)).count == dataOutputs.count,
                     .synchronizerOutputsInvalid)
        for output in dataOutputs {
            Misuse.check(output is AVCaptureVideoDataOutput || output is AVCaptureAudioDataOutput || output is AVCaptureMetadataOutput,
                         .synchronizerOutputNotSupported(String(describing: type(of: output))))
        }
        self.dataOutputs = dataOutputs
        receiver = SynchronizedOutputsReceiver(outputs: dataOutputs)
        super.init()
        receiver.synchronizer = self
        for output in dataOutputs { output.synchronize(with: receiver) }
    }

    deinit {
        for output in dataOutputs { output.synchronize(with: nil) }
    }

    /// The delegate that receives the collections (held weakly), or nil.
    public var delegate: (any AVCaptureDataOutputSynchronizerDelegate)? { listener.withLock { $0.delegate } }

    /// The queue the delegate is called on, or nil.
    public var delegateCallbackQueue: DispatchQueue? { listener.withLock { $0.queue } }

    /// Sets the delegate and the serial queue it is called on (collections are delivered in
    /// order on it); a delegate without a queue is a programmer error.
    public func setDelegate(_ delegate: (any AVCaptureDataOutputSynchronizerDelegate)?, queue delegateCallbackQueue: DispatchQueue?) {
        Misuse.check(delegate == nil || delegateCallbackQueue != nil, .synchronizerDelegateWithoutQueue)
        listener.withLock { $0 = Listener(delegate: delegate, queue: delegate == nil ? nil : delegateCallbackQueue) }
    }

    /// Hands a collection to the delegate, on its queue.
    func deliver(_ collection: AVCaptureSynchronizedDataCollection) {
        let (delegate, queue) = listener.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue else { return }
        nonisolated(unsafe) let handed = delegate
        queue.async { handed.dataOutputSynchronizer(self, didOutput: collection) }
    }
}
