import Dispatch
import OpenCoreMedia

/// What renders sample buffers an app enqueues, in time with a timebase: the audio renderer
/// (`AVSampleBufferAudioRenderer`) and what an `AVSampleBufferRenderSynchronizer` keeps together.
public protocol AVQueuedSampleBufferRendering: AnyObject {
    /// The timebase that says which presentation time is rendered now: the synchronizer's once
    /// the renderer is added to one.
    var timebase: CMTimebase { get }

    /// Adds a sample buffer to render at its presentation time; buffers come in time order.
    func enqueue(_ sampleBuffer: CMSampleBuffer)

    /// Drops everything enqueued and not yet rendered.
    func flush()

    /// Whether the renderer wants more buffers now (it holds less than it keeps ahead).
    var isReadyForMoreMediaData: Bool { get }

    /// Calls `block` on `queue` whenever the renderer is ready for more; the block enqueues
    /// until `isReadyForMoreMediaData` is false. Until `stopRequestingMediaData()`.
    func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void)

    /// Stops calling the block given to `requestMediaDataWhenReady(on:using:)`.
    func stopRequestingMediaData()

    /// Whether enough is enqueued for playing to start without running dry at once.
    var hasSufficientMediaDataForReliablePlaybackStart: Bool { get }
}
