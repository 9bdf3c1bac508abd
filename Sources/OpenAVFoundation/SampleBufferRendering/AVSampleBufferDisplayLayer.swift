import Dispatch
import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A layer that shows video sample buffers an app enqueues, compressed or decoded, each at its
/// presentation time: put it in an `AVDisplayWindow`. Its `sampleBufferRenderer` does the work;
/// the layer's own queueing members (`enqueue(_:)`, `flush()`, `status`, …) are that renderer's.
///
/// Without a `controlTimebase` the times are the host time clock's (`CACurrentMediaTime()`);
/// with one, or once added to an `AVSampleBufferRenderSynchronizer`, they are that timebase's.
/// The picture due is taken at each redraw of the window, fitted to the layer's bounds by
/// `videoGravity`.
open class AVSampleBufferDisplayLayer: CALayer, AVQueuedSampleBufferRendering, @unchecked Sendable {
    /// The renderer that decodes, queues and times the layer's pictures.
    public let sampleBufferRenderer = AVSampleBufferVideoRenderer()

    /// Creates a layer that shows nothing until buffers are enqueued.
    public override init() {
        super.init()
        sampleBufferRenderer.failedToDecode = { [weak self] error in
            guard let self else { return }
            NotificationCenter.default.post(name: .AVSampleBufferDisplayLayerFailedToDecode, object: self,
                                            userInfo: [AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey: error])
        }
    }

    /// The timebase the layer's buffers are shown on; nil (the default) for the host time clock.
    open var controlTimebase: CMTimebase? {
        get { control.withLock { $0 } }
        set {
            control.withLock { $0 = newValue }
            sampleBufferRenderer.follow(newValue ?? AVSampleBufferVideoRenderer.hostTimebase())
        }
    }

    private let control = Locked<CMTimebase?>(nil)

    /// How the video fits the layer's bounds; `.resizeAspect` by default.
    @Locked open var videoGravity = AVLayerVideoGravity.resizeAspect

    /// Whether the layer keeps the display awake while it shows video; true by default (kept:
    /// nothing here puts a display to sleep).
    @Locked open var preventsDisplaySleepDuringVideoPlayback = true

    /// Whether the first picture is decoded and ready to show.
    open var isReadyForDisplay: Bool { sampleBufferRenderer.hasPicture }

    /// The renderer's status.
    open var status: AVQueuedSampleBufferRenderingStatus { sampleBufferRenderer.status }

    /// Why the renderer failed, or nil.
    open var error: (any Error)? { sampleBufferRenderer.error }

    /// Whether decoding stopped until a flush (never here).
    open var requiresFlushToResumeDecoding: Bool { sampleBufferRenderer.requiresFlushToResumeDecoding }

    /// The renderer's timebase.
    open var timebase: CMTimebase { sampleBufferRenderer.timebase }

    /// Adds a buffer to show at its presentation time.
    open func enqueue(_ sampleBuffer: CMSampleBuffer) { sampleBufferRenderer.enqueue(sampleBuffer) }

    /// Drops the buffers not yet shown, keeping the picture shown.
    open func flush() { sampleBufferRenderer.flush() }

    /// Drops the buffers not yet shown and the picture shown.
    open func flushAndRemoveImage() { sampleBufferRenderer.flush(removingDisplayedImage: true) }

    /// Whether the layer takes more buffers now.
    open var isReadyForMoreMediaData: Bool { sampleBufferRenderer.isReadyForMoreMediaData }

    /// Whether enough is decoded for playing to start smoothly.
    open var hasSufficientMediaDataForReliablePlaybackStart: Bool { sampleBufferRenderer.hasSufficientMediaDataForReliablePlaybackStart }

    /// Calls `block` on `queue` whenever the layer takes more buffers.
    open func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        sampleBufferRenderer.requestMediaDataWhenReady(on: queue, using: block)
    }

    /// Stops calling the request block.
    open func stopRequestingMediaData() { sampleBufferRenderer.stopRequestingMediaData() }

    /// The picture due now, fitted to the bounds by the video gravity.
    override func currentPicture() -> LayerPicture? {
        guard let buffer = sampleBufferRenderer.pictureForDisplay() else { return nil }
        let size = CGSize(width: CVPixelBufferGetWidth(buffer), height: CVPixelBufferGetHeight(buffer))
        return LayerPicture(buffer: buffer, rect: videoGravity.videoRect(for: size, in: bounds), clip: bounds)
    }
}
