import Dispatch
import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// Gives a playing item's video as pixel buffers, picked by item time: the way a program
/// takes pictures from a player (to show, analyse or encode them).
///
/// The player decodes ahead while an item with a video output plays; `copyPixelBuffer` hands
/// out the picture shown at the time asked for, and pictures passed over are dropped.
open class AVPlayerItemVideoOutput: AVPlayerItemOutput, @unchecked Sendable {
    /// The pixel buffer attributes the pictures are made with (`kCVPixelBufferPixelFormatTypeKey`;
    /// the decoder's own format when none).
    let attributes: [String: Any]
    @Locked private var lastCopied = CMTime.negativeInfinity

    /// The delegate and its queue, set together.
    private struct Delegation {
        weak var delegate: AVPlayerItemOutputPullDelegate?
        var queue: DispatchQueue?
    }

    private let delegation = Locked(Delegation())

    /// Creates an output whose pixel buffers have `pixelBufferAttributes` (nil, the default: the
    /// decoder's own format).
    public init(pixelBufferAttributes: [String: Any]? = nil) {
        attributes = pixelBufferAttributes ?? [:]
        super.init()
    }

    /// Creates an output with `outputSettings` (`kCVPixelBufferPixelFormatTypeKey` and the
    /// other pixel buffer attributes; nil for the decoder's own format).
    public convenience init(outputSettings: [String: Any]?) {
        self.init(pixelBufferAttributes: outputSettings)
    }

    /// Whether a picture newer than the last one copied is shown at `itemTime`.
    open func hasNewPixelBuffer(forItemTime itemTime: CMTime) -> Bool {
        guard let queue = item?.videoQueue else { return false }
        return queue.hasFrame(at: itemTime, newerThan: lastCopied)
    }

    /// The picture shown at `itemTime`, with its own time in `outItemTimeForDisplay`; nil when
    /// none is decoded yet.
    open func copyPixelBuffer(forItemTime itemTime: CMTime, itemTimeForDisplay outItemTimeForDisplay: UnsafeMutablePointer<CMTime>?) -> CVPixelBuffer? {
        guard let queue = item?.videoQueue, let (buffer, time) = queue.frame(at: itemTime) else { return nil }
        lastCopied = time
        outItemTimeForDisplay?.pointee = time
        return buffer
    }

    /// The delegate told of media changes, and the queue it is told on.
    open var delegate: AVPlayerItemOutputPullDelegate? { delegation.delegate }
    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { delegation.queue }

    /// Sets the delegate and the queue it is called on.
    open func setDelegate(_ delegate: AVPlayerItemOutputPullDelegate?, queue delegateQueue: DispatchQueue?) {
        delegation.withLock { d in
            d.delegate = delegate
            d.queue = delegateQueue
        }
    }

    /// Asks for `outputMediaDataWillChange` once the next picture is decoded (Apple: up to
    /// `interval` seconds before it is shown; here as soon as it is decoded).
    open func requestNotificationOfMediaDataChange(withAdvanceInterval interval: TimeInterval) {
        let queue = item?.videoQueue
        DispatchQueue.global().async { [weak self] in
            guard let self else { return }
            _ = queue?.waitForFirstFrame(until: Date().addingTimeInterval(max(1, interval)))
            self.tellDelegate { $0.outputMediaDataWillChange(self) }
        }
    }

    /// A seek or a new item flushed the pictures: the next copy starts afresh.
    func flushed() {
        lastCopied = .negativeInfinity
        tellDelegate { $0.outputSequenceWasFlushed(self) }
    }

    /// Calls the delegate on its queue (the main queue when none was given).
    private func tellDelegate(_ call: @escaping (AVPlayerItemOutputPullDelegate) -> Void) {
        let (delegate, delegateQueue) = delegation.withLock { ($0.delegate, $0.queue) }
        tell(delegate, on: delegateQueue, call)
    }
}
