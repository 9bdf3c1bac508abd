import Dispatch
import Foundation
import OpenCoreMedia

/// Keeps sample buffer renderers in time with one timebase: setting its rate starts, pauses and
/// moves them all together.
///
/// The timebase runs on the host time clock (the capture and display clock), and the sound
/// device of the first audio renderer added drives it, as on Apple platforms: while its sound
/// plays, the timebase is nudged to the time heard whenever the two are a millisecond apart, so
/// pictures follow a sound card whose clock runs fast or slow. Differs from Apple: the
/// timebase's `sourceClock` stays the host time clock.
public final class AVSampleBufferRenderSynchronizer: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var added: [any AVQueuedSampleBufferRendering] = []
    private var observers: [ObjectIdentifier: any DispatchSourceTimer] = [:]

    /// The synchronizer's timebase: read its time and rate here; set them with `setRate(_:time:)`.
    public let timebase: CMTimebase

    /// A stopped synchronizer at time zero.
    public override init() {
        // A timebase on the host time clock can always be made.
        timebase = try! CMTimebase(sourceClock: CMClockGetHostTimeClock())
        super.init()
    }

    /// Whether a rate change waits until the renderers have enough to start (kept: rates take
    /// effect at once here, and the audio renderer starts with what it has).
    public var delaysRateChangeUntilHasSufficientMediaData = true

    /// The playback rate: 0 stopped, 1 normal. Setting it keeps the current time.
    public var rate: Float {
        get { Float(timebase.rate) }
        set { try? timebase.setRate(Double(newValue)) }
    }

    /// Sets the rate, and the time from which it plays now.
    public func setRate(_ rate: Float, time: CMTime) {
        setRate(rate, time: time, atHostTime: CMClockGetTime(CMClockGetHostTimeClock()))
    }

    /// Sets the rate, and the time the timebase is at when the host time clock reads `hostTime`
    /// (in the future to start together with something else, in the past to catch up).
    public func setRate(_ rate: Float, time: CMTime, atHostTime hostTime: CMTime) {
        try? timebase.setRateAndAnchorTime(rate: Double(rate), anchorTime: time, referenceTime: hostTime)
    }

    /// The timebase's time now.
    public func currentTime() -> CMTime { timebase.time }

    /// The renderers added, in order.
    public var renderers: [any AVQueuedSampleBufferRendering] { lock.withLock { added } }

    /// Adds a renderer, which from now on renders on the synchronizer's timebase.
    public func addRenderer(_ renderer: any AVQueuedSampleBufferRendering) {
        lock.withLock {
            guard !added.contains(where: { $0 === renderer }) else { return }
            added.append(renderer)
        }
        Self.video(renderer)?.follow(timebase)
        assignDriver()
    }

    /// Lets the first audio renderer's device drive the timebase, the others follow it.
    private func assignDriver() {
        let sounds = renderers.compactMap { $0 as? AVSampleBufferAudioRenderer }
        for (index, sound) in sounds.enumerated() { sound.follow(timebase, drives: index == 0) }
    }

    /// The video renderer of a display layer, or the renderer itself.
    private static func video(_ renderer: any AVQueuedSampleBufferRendering) -> AVSampleBufferVideoRenderer? {
        (renderer as? AVSampleBufferVideoRenderer) ?? (renderer as? AVSampleBufferDisplayLayer)?.sampleBufferRenderer
    }

    /// Removes a renderer when the timebase reaches `time` (at once when it has passed, or the
    /// timebase is stopped past it); `completionHandler` is told whether it was removed (false
    /// when it was not added, or was added again before then).
    public func removeRenderer(_ renderer: any AVQueuedSampleBufferRendering, at time: CMTime,
                               completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        nonisolated(unsafe) let renderer = renderer  // removed on the observer's queue, once
        nonisolated(unsafe) var token: Any?  // set before the observer first looks
        let remove: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            let removed = lock.withLock { () -> Bool in
                guard let index = added.firstIndex(where: { $0 === renderer }) else { return false }
                added.remove(at: index)
                return true
            }
            if removed, let audio = renderer as? AVSampleBufferAudioRenderer {
                audio.flush()
                audio.follow(try! CMTimebase(sourceClock: CMClockGetHostTimeClock()), drives: false)
                assignDriver()
            }
            if removed, let video = Self.video(renderer) {
                video.flush()
                video.follow((renderer as? AVSampleBufferDisplayLayer)?.controlTimebase ?? AVSampleBufferVideoRenderer.hostTimebase())
            }
            if let token { removeTimeObserver(token) }
            completionHandler?(removed)
        }
        guard time.isNumeric, currentTime() < time else { return remove() }
        token = addBoundaryTimeObserver(forTimes: [NSValue(time: time)], queue: nil, using: remove)
    }

    /// Calls `block` on `queue` (the main queue when nil) every `interval` of the timebase's
    /// time while it moves, with the current time; returns the observer, for
    /// `removeTimeObserver(_:)`.
    public func addPeriodicTimeObserver(forInterval interval: CMTime, queue: DispatchQueue?,
                                        using block: @escaping @Sendable (CMTime) -> Void) -> Any {
        let step = max(0.001, interval.seconds.isFinite ? interval.seconds : 1)
        var last: CMTime?
        return observe(queue: queue, every: min(step, 0.01)) { [timebase] in
            let now = timebase.time
            guard timebase.rate != 0 || last == nil else { return }
            guard let previous = last, abs((now - previous).seconds) < step else {
                last = now
                return block(now)
            }
        }
    }

    /// Calls `block` on `queue` (the main queue when nil) when the timebase's time passes one
    /// of `times` while it moves; returns the observer, for `removeTimeObserver(_:)`.
    public func addBoundaryTimeObserver(forTimes times: [NSValue], queue: DispatchQueue?,
                                        using block: @escaping @Sendable () -> Void) -> Any {
        let boundaries = times.map(\.timeValue).filter(\.isNumeric)
        var last = timebase.time
        return observe(queue: queue, every: 0.002) { [timebase] in
            let now = timebase.time
            defer { last = now }
            guard now > last else { return }
            if boundaries.contains(where: { $0 > last && $0 <= now }) { block() }
        }
    }

    /// Stops an observer made by `addPeriodicTimeObserver(forInterval:queue:using:)` or
    /// `addBoundaryTimeObserver(forTimes:queue:using:)`.
    public func removeTimeObserver(_ observer: Any) {
        guard let token = observer as? ObserverToken else { return }
        lock.withLock { observers.removeValue(forKey: ObjectIdentifier(token)) }?.cancel()
    }

    /// The value `add…TimeObserver` returns.
    private final class ObserverToken {}

    /// Looks at the timebase every `seconds` on `queue` with `check`.
    private func observe(queue: DispatchQueue?, every seconds: Double, _ check: @escaping () -> Void) -> Any {
        let token = ObserverToken()
        let timer = DispatchSource.makeTimerSource(queue: queue ?? .main)
        nonisolated(unsafe) let check = check  // called on the timer's queue alone
        timer.setEventHandler { check() }
        timer.schedule(deadline: .now(), repeating: seconds, leeway: .milliseconds(1))
        lock.withLock { observers[ObjectIdentifier(token)] = timer }
        timer.resume()
        return token
    }
}
