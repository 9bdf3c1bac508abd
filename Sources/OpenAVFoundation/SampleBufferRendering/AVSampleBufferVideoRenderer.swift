import Dispatch
import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// Shows video sample buffers an app enqueues, each at its presentation time on a timebase: what
/// an `AVSampleBufferDisplayLayer` shows (its `sampleBufferRenderer`).
///
/// Compressed buffers (H.264, HEVC, VP9, AV1, MPEG-4, … whatever FFmpeg decodes, described by
/// their format description and its configuration record) are decoded on a queue of the
/// renderer's own, off the caller's thread, each picture as soon as its packet is in; buffers of
/// decoded pictures (an image buffer) are taken as they are. Pictures wait in presentation order
/// until the timebase reaches them; the newest one due is the one shown, those it passes are
/// dropped. A buffer carrying `kCMSampleAttachmentKey_DisplayImmediately` is shown as soon as it
/// is decoded. The timebase is the host time clock's (a picture is shown when
/// `CACurrentMediaTime()` reaches its time), a layer's `controlTimebase`, or the timebase of the
/// synchronizer the renderer is added to.
public final class AVSampleBufferVideoRenderer: NSObject, AVQueuedSampleBufferRendering, @unchecked Sendable {
    /// How many buffers may wait (to be decoded or shown) before the renderer is no longer ready
    /// for more.
    static let keptAhead = 15
    /// How many decoded pictures make a start reliable.
    static let sufficientForStart = 3

    private typealias Picture = EnqueuedVideoDecoder.Picture

    private struct State {
        var status = AVQueuedSampleBufferRenderingStatus.unknown
        var error: (any Error)?
        var timebase: CMTimebase
        /// Compressed buffers given to the decoding queue and not yet decoded.
        var decoding = 0
        /// Decoded pictures in presentation order, not yet shown.
        var pictures: [Picture] = []
        var shown: CVPixelBuffer?
        var request: (queue: DispatchQueue, block: @Sendable () -> Void)?
        var isCallingBlock = false
        /// Counts flushes: what the decoding queue finishes for an older one is dropped.
        var generation = 0
    }

    private let lock = NSLock()
    private var state: State
    /// The decoding queue, the decoder only it uses, and how many buffers it has decoded (a
    /// drain waits until no other came for a while).
    private let decoding = DispatchQueue(label: "OpenAVFoundation.AVSampleBufferVideoRenderer")
    private let decoder = EnqueuedVideoDecoder(pictures: keptAhead + 2)
    private var decoded = 0
    /// How long the feeding must stop before the pictures the decoder holds back are taken out.
    private static let idleBeforeDrain = DispatchTimeInterval.milliseconds(50)
    /// Fires when the first waiting picture comes due on the timebase, so that a renderer that
    /// holds all it takes asks for more once it has shown one.
    private let wakeUp: DispatchSourceTimer

    /// A renderer showing pictures at the host time clock's times.
    public override init() {
        state = State(timebase: Self.hostTimebase())
        wakeUp = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "OpenAVFoundation.AVSampleBufferVideoRenderer.wakeUp"))
        super.init()
        wakeUp.setEventHandler { [weak self] in self?.served() }
        wakeUp.activate()
        try? state.timebase.addTimer(wakeUp)
    }

    deinit {
        try? state.timebase.removeTimer(wakeUp)
        wakeUp.cancel()
    }

    /// A timebase whose time is the host time clock's, running.
    static func hostTimebase() -> CMTimebase {
        let host = CMClockGetHostTimeClock()
        // A timebase on the host time clock can always be made and set.
        let timebase = try! CMTimebase(sourceClock: host)
        let now = CMClockGetTime(host)
        try! timebase.setRateAndAnchorTime(rate: 1, anchorTime: now, referenceTime: now)
        return timebase
    }

    /// Whether the renderer renders, or failed.
    public var status: AVQueuedSampleBufferRenderingStatus { lock.withLock { state.status } }

    /// Why the renderer failed, or nil.
    public var error: (any Error)? { lock.withLock { state.error } }

    /// Whether decoding stopped until a flush: never here (no decoder is taken from an app in
    /// the background on Linux); a failed decode sets `status` instead.
    public var requiresFlushToResumeDecoding: Bool { false }

    /// The timebase pictures are shown on: the host time clock's, a layer's control timebase,
    /// or a synchronizer's.
    public var timebase: CMTimebase { lock.withLock { state.timebase } }

    /// Shows pictures on `timebase` from now on.
    func follow(_ timebase: CMTimebase) {
        let old = lock.withLock { () -> CMTimebase in
            defer { state.timebase = timebase }
            return state.timebase
        }
        guard old !== timebase else { return }
        try? old.removeTimer(wakeUp)
        try? timebase.addTimer(wakeUp)
        served()
    }

    /// Adds a buffer to show at its presentation time: compressed packets (decoded on the
    /// renderer's queue) or a decoded picture. Ignored once the renderer has failed, until a flush.
    public func enqueue(_ sampleBuffer: CMSampleBuffer) {
        let immediately = Self.displaysImmediately(sampleBuffer)
        lock.lock()
        guard state.status != .failed else { return lock.unlock() }
        if let image = sampleBuffer.imageBuffer {
            insert(Picture(time: sampleBuffer.presentationTimeStamp, buffer: image, immediately: immediately))
            state.status = .rendering
            lock.unlock()
            return served()
        }
        state.decoding += 1
        state.status = .rendering
        let generation = state.generation
        lock.unlock()
        decoding.async { [self] in decode(sampleBuffer, immediately: immediately, generation: generation) }
    }

    /// Puts a picture among those waiting, in presentation order (caller holds the lock).
    private func insert(_ picture: Picture) {
        let index = state.pictures.lastIndex { $0.time <= picture.time }.map { $0 + 1 } ?? 0
        state.pictures.insert(picture, at: index)
    }

    /// Whether a buffer's first sample asks to be shown at once (read without making the
    /// attachment dictionaries of a demuxed packet that is not a key frame).
    private static func displaysImmediately(_ sampleBuffer: CMSampleBuffer) -> Bool {
        (sampleBuffer.sampleAttachment(kCMSampleAttachmentKey_DisplayImmediately, at: 0) as? Bool) == true
    }

    /// Decodes a buffer of packets on the decoding queue and adds its pictures; a buffer the
    /// engine cannot decode fails the renderer. When no other buffer comes for 50 ms, the
    /// pictures the decoder holds back are taken out.
    private func decode(_ sampleBuffer: CMSampleBuffer, immediately: Bool, generation: Int) {
        guard lock.withLock({ state.generation == generation }) else { return }
        var pictures: [Picture] = []
        var failure: AVError?
        do throws(EngineError) {
            pictures = try decoder.decode(sampleBuffer, immediately: immediately)
        } catch {
            failure = AVError(error, fallback: .decodeFailed)
        }
        decoded += 1
        add(pictures, failure: failure, generation: generation, decodedOne: true)
        guard decoder.holdsPictures else { return }
        let sequence = decoded
        decoding.asyncAfter(deadline: .now() + Self.idleBeforeDrain) { [weak self] in
            self?.drain(ifNoneSince: sequence, generation: generation)
        }
    }

    /// On the decoding queue: takes out the pictures the decoder holds back, unless a buffer was
    /// decoded after the `sequence`th, one waits, or a flush came after `generation`.
    private func drain(ifNoneSince sequence: Int, generation: Int) {
        guard decoded == sequence, lock.withLock({ state.generation == generation && state.decoding == 0 }) else { return }
        do throws(EngineError) {
            add(try decoder.drain(), failure: nil, generation: generation, decodedOne: false)
        } catch {
            add([], failure: AVError(error, fallback: .decodeFailed), generation: generation, decodedOne: false)
        }
    }

    /// Waits until every buffer enqueued so far is decoded, and takes out the pictures the
    /// decoder holds back as the feeding stopping would: what the fuzz target waits for before
    /// it looks at the renderer (no public call waits for the decoding queue).
    func finishDecoding() {
        decoding.sync { drain(ifNoneSince: decoded, generation: lock.withLock { state.generation }) }
    }

    /// Adds decoded pictures (of the flush generation `generation`), or fails the renderer and
    /// says so; then asks for more.
    private func add(_ pictures: [Picture], failure: AVError?, generation: Int, decodedOne: Bool) {
        let failed: AVError? = lock.withLock {
            guard state.generation == generation else { return nil }
            if decodedOne { state.decoding -= 1 }
            for picture in pictures { insert(picture) }
            guard let failure, state.status != .failed else { return nil }
            state.status = .failed
            state.error = failure
            return failure
        }
        if let failed {
            NotificationCenter.default.post(name: Self.didFailToDecodeNotification, object: self,
                                            userInfo: [AVSampleBufferVideoRendererDidFailToDecodeNotificationErrorKey: failed])
            failedToDecode?(failed)
        }
        served()
    }

    /// Told when a decode fails, after the renderer's own notification (the layer posts its own).
    var failedToDecode: (@Sendable (AVError) -> Void)?

    /// The picture due now on the timebase: the newest waiting one whose time has come (or that
    /// is shown at once), the ones before it dropped; else the one shown before (caller holds
    /// the lock).
    private func advance() -> CVPixelBuffer? {
        let now = state.timebase.time
        var due = 0
        while due < state.pictures.count, state.pictures[due].immediately || state.pictures[due].time <= now { due += 1 }
        if due > 0 {
            state.shown = state.pictures[due - 1].buffer
            state.pictures.removeFirst(due)
        }
        return state.shown
    }

    /// The picture shown now (the newest due on the timebase), or nil before the first.
    public func displayedPixelBuffer() -> CVPixelBuffer? {
        lock.withLock { advance() }
    }

    /// Whether a picture has been decoded to show.
    var hasPicture: Bool { lock.withLock { state.shown != nil || !state.pictures.isEmpty } }

    /// The picture due now for a window's redraw; asks for more when that made room.
    func pictureForDisplay() -> CVPixelBuffer? {
        let (picture, room) = lock.withLock { (advance(), state.decoding + state.pictures.count < Self.keptAhead) }
        if room, lock.withLock({ state.request != nil && !state.isCallingBlock }) { served() }
        return picture
    }

    /// Drops every buffer enqueued and not yet shown, keeping the picture shown; a failed
    /// renderer starts over. The next buffer enqueued should start at a key frame.
    public func flush() {
        flush(removingDisplayedImage: false)
    }

    /// Drops every buffer enqueued and not yet shown, and the picture shown when
    /// `removeDisplayedImage`; then calls `handler`.
    public func flush(removingDisplayedImage removeDisplayedImage: Bool, completionHandler handler: (@Sendable () -> Void)? = nil) {
        lock.withLock {
            state.generation += 1
            state.decoding = 0
            state.pictures.removeAll()
            if removeDisplayedImage { state.shown = nil }
            if state.status == .failed {
                state.status = .unknown
                state.error = nil
            }
        }
        decoding.async { [self] in
            decoder.flush()
            handler?()
        }
        served()
    }

    /// Whether fewer than 15 buffers wait to be decoded or shown (and the renderer has not
    /// failed).
    public var isReadyForMoreMediaData: Bool {
        lock.withLock { isReady() }
    }

    /// Whether there is room for more (caller holds the lock); drops pictures passed by the time.
    private func isReady() -> Bool {
        _ = advance()
        return state.status != .failed && state.decoding + state.pictures.count < Self.keptAhead
    }

    /// Whether three decoded pictures wait to be shown, or the first is shown.
    public var hasSufficientMediaDataForReliablePlaybackStart: Bool {
        lock.withLock { state.pictures.count >= Self.sufficientForStart || (state.shown != nil && state.decoding == 0) }
    }

    /// Calls `block` on `queue` whenever the renderer is ready for more, until
    /// `stopRequestingMediaData()`; the block enqueues until `isReadyForMoreMediaData` is false.
    public func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        lock.withLock { state.request = (queue, block) }
        served()
    }

    /// Stops calling the block given to `requestMediaDataWhenReady(on:using:)`.
    public func stopRequestingMediaData() {
        lock.withLock { state.request = nil }
    }

    /// Calls the request block when the renderer is ready and it is not already being called;
    /// when it is not ready, sets the timer for the time the first waiting picture comes due.
    private func served() {
        lock.lock()
        guard let request = state.request, !state.isCallingBlock else { return lock.unlock() }
        guard isReady() else {
            // Full: a decode finishing, or this timer when the first picture comes due, asks again.
            if let first = state.pictures.first { try? state.timebase.setTimerNextFireTime(wakeUp, fireTime: first.time) }
            return lock.unlock()
        }
        state.isCallingBlock = true
        lock.unlock()
        request.queue.async { [weak self] in
            request.block()
            guard let self else { return }
            let again = lock.withLock {
                state.isCallingBlock = false
                return isReady()
            }
            // The block left room (it had nothing yet): asked again a little later, not at once.
            if again { DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { [weak self] in self?.served() } }
        }
    }
}
