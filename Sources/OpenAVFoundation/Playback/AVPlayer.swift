import CaptureDevices
import Dispatch
import Foundation
import OpenCoreMedia

/// Plays a player item: its sound to the sound server (PulseAudio, or PipeWire through
/// `pipewire-pulse`), its video to the item's outputs, on a thread of its own.
///
/// The sound device is the master clock; an item without sound, or a machine without a sound
/// server, plays on the host clock. Differs from Apple: time observers and completion handlers
/// given no queue run on the main queue as Apple's do, so a command-line program must run it
/// (`dispatchMain()` or `RunLoop.main.run()`); seek completions run on a global queue.
open class AVPlayer: NSObject, @unchecked Sendable {
    let engine: PlaybackEngine

    /// Creates a player without an item.
    public override init() {
        engine = PlaybackEngine(actionAtItemEnd: Self.defaultActionAtItemEnd)
        super.init()
        engine.player = self
    }

    /// Creates a player of the asset at `url`.
    public convenience init(url URL: URL) {
        self.init(playerItem: AVPlayerItem(url: URL))
    }

    /// Creates a player of `item`.
    public convenience init(playerItem item: AVPlayerItem?) {
        self.init()
        replaceCurrentItem(with: item)
    }

    deinit { engine.stop() }

    /// What a new player does at an item's end.
    class var defaultActionAtItemEnd: ActionAtItemEnd { .pause }

    /// The item playing (or to play).
    open var currentItem: AVPlayerItem? { engine.items.first }

    /// Makes `item` the current item (nil: none), from its current time.
    open func replaceCurrentItem(with item: AVPlayerItem?) {
        Misuse.check(item?.player == nil || item?.player === self, .itemOfAnotherPlayer)
        engine.setItems(item.map { [$0] } ?? [])
    }

    /// Plays at `defaultRate`.
    open func play() {
        rate = defaultRate
    }

    /// Plays at `rate` at once, whether or not enough media is buffered. Differs from Apple: the
    /// same as setting `rate`, as a local file needs no buffering before it plays (the player
    /// still waits for the item to be ready).
    open func playImmediately(atRate rate: Float) {
        self.rate = rate
    }

    /// Pauses (rate 0).
    open func pause() {
        rate = 0
    }

    /// The playback rate: 0 paused, 1 the normal speed, 2 twice as fast; the sound keeps its
    /// pitch unless the item's `audioTimePitchAlgorithm` is `.varispeed`. Differs from Apple:
    /// negative rates (reverse play) are taken as 0.
    open var rate: Float {
        get { engine.state.rate }
        set {
            engine.state.rate = max(0, newValue)
            NotificationCenter.default.post(name: AVPlayer.rateDidChangeNotification, object: self,
                                            userInfo: [AVPlayer.rateDidChangeReasonKey: RateDidChangeReason.setRateCalled])
        }
    }

    /// The rate `play()` plays at (1 by default).
    open var defaultRate: Float {
        get { engine.state.defaultRate }
        set { engine.state.defaultRate = newValue }
    }

    /// Seeks to `itemTime` (unless invalid) and plays at `rate` from there. Differs from Apple:
    /// playback starts when the seek is done, not at `hostClockTime`.
    open func setRate(_ rate: Float, time itemTime: CMTime, atHostTime hostClockTime: CMTime) {
        if itemTime.isNumeric { seek(to: itemTime, toleranceBefore: .zero, toleranceAfter: .zero) }
        self.rate = rate
    }

    /// Whether the player can play.
    open var status: Status {
        let status = engine.state.status
        return status == .unknown && currentItem?.status == .readyToPlay ? .readyToPlay : status
    }

    /// Why the player failed, when `status` is `.failed`.
    open var error: Error? { nil }

    /// Whether playback is under way, paused or waiting.
    open var timeControlStatus: TimeControlStatus { engine.timeControl.status }

    /// Why playback waits, when `timeControlStatus` is `.waitingToPlayAtSpecifiedRate`.
    open var reasonForWaitingToPlay: WaitingReason? { engine.timeControl.reason }

    /// Whether playback waits for enough media before it starts (true by default).
    open var automaticallyWaitsToMinimizeStalling: Bool {
        get { engine.state.automaticallyWaitsToMinimizeStalling }
        set { engine.state.automaticallyWaitsToMinimizeStalling = newValue }
    }

    /// The current item's current time (invalid without an item).
    open func currentTime() -> CMTime {
        guard let item = currentItem else { return .invalid }
        guard item.status == .readyToPlay else { return item.state.restingTime }
        let now = engine.clock.now
        return max(.zero, min(now, item.endTime))
    }

    /// Seeks to `time`, landing on the key frame at or before it.
    open func seek(to time: CMTime) {
        seek(to: time, completionHandler: { _ in })
    }

    /// Seeks to `time`, landing on the key frame at or before it, then calls the handler with
    /// whether the seek finished (false when another seek replaced it).
    open func seek(to time: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity, completionHandler: completionHandler)
    }

    /// Seeks to within the tolerances of `time`: zero lands on the exact frame (decoding from the
    /// key frame before it), infinite on the key frame at or before it, a window on that key
    /// frame when it is inside, else exactly. Differs from Apple: a key frame after `time` (within
    /// `toleranceAfter`) is not looked for.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) {
        seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter, completionHandler: { _ in })
    }

    /// Seeks to within the tolerances of `time`, then calls the handler with whether the seek
    /// finished.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
                   completionHandler: @escaping @Sendable (Bool) -> Void) {
        guard let item = currentItem else { return completionHandler(false) }
        item.seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter, completionHandler: completionHandler)
    }

    /// Seeks to the date `date` in a stream with dates: the items played here have no dates
    /// (`AVPlayerItem.currentDate()` is nil), so the seek does nothing.
    open func seek(to date: Date) {
        seek(to: date, completionHandler: { _ in })
    }

    /// Seeks to the date `date` in a stream with dates, then calls the handler with whether the
    /// playhead moved: never here (false), as the items played have no dates.
    open func seek(to date: Date, completionHandler: @escaping @Sendable (Bool) -> Void) {
        completionHandler(false)
    }

    /// Seeks to the date `date` in a stream with dates; whether the playhead moved (never here).
    open func seek(to date: Date) async -> Bool {
        false
    }

    /// Seeks to `time`, landing on the key frame at or before it; whether the seek finished.
    open func seek(to time: CMTime) async -> Bool {
        await currentItem?.seek(to: time) ?? false
    }

    /// Seeks to within the tolerances of `time`; whether the seek finished.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) async -> Bool {
        await currentItem?.seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) ?? false
    }

    /// Gets ready to play from the current time at `rate`, then calls the handler with whether
    /// it is ready (on a global queue): true once the current item is ready to play, as the
    /// player decodes ahead of the clock by itself; false when the player is not ready to play
    /// or has no item.
    open func preroll(atRate rate: Float, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        let ready = status == .readyToPlay && currentItem?.status == .readyToPlay
        guard let completionHandler else { return }
        DispatchQueue.global().async { completionHandler(ready) }
    }

    /// Gets ready to play from the current time at `rate`; whether it is ready (see
    /// `preroll(atRate:completionHandler:)`).
    open func preroll(atRate rate: Float) async -> Bool {
        await withCheckedContinuation { continuation in preroll(atRate: rate) { continuation.resume(returning: $0) } }
    }

    /// Cancels the prerolls under way: nothing to do here, as a preroll completes at once.
    open func cancelPendingPrerolls() {}

    /// What the player does when an item reaches its end.
    open var actionAtItemEnd: ActionAtItemEnd {
        get { engine.state.actionAtItemEnd }
        set { engine.state.actionAtItemEnd = newValue }
    }

    /// The sound's volume, 0 to 1 (1 by default).
    open var volume: Float {
        get { engine.state.volume }
        set { engine.state.volume = max(0, min(1, newValue)) }
    }

    /// Whether the player chooses each item's audio and subtitles by its selection criteria
    /// (`setMediaSelectionCriteria(_:forMediaCharacteristic:)`) as the item becomes ready;
    /// true by default. A choice made with `AVPlayerItem.select(_:in:)` always stands.
    open var appliesMediaSelectionCriteriaAutomatically: Bool {
        get { engine.appliesSelectionCriteria }
        set { engine.appliesSelectionCriteria = newValue }
    }

    /// Whether the sound is muted. Differs from Apple: a muted player still runs on the sound
    /// device's clock (it plays silence), so unmuting is heard at once.
    open var isMuted: Bool {
        get { engine.state.isMuted }
        set { engine.state.isMuted = newValue }
    }

    /// The sound server's name of the sink sound goes to (nil: the server's default sink, and
    /// the sink chosen once sound plays).
    open var audioOutputDeviceUniqueID: String? {
        get { engine.sinkName }
        set { engine.sinkName = newValue }
    }

    /// Whether the player may switch to external playback (AirPlay on Apple platforms); true by
    /// default. Linux has no external playback, so it never becomes active.
    open var allowsExternalPlayback: Bool {
        get { engine.state.allowsExternalPlayback }
        set { engine.state.allowsExternalPlayback = newValue }
    }

    /// Whether video plays on an external device: never on Linux (false).
    open var isExternalPlaybackActive: Bool { false }

    /// Whether video is hidden because the display lacks the protection the content asks for:
    /// never here (false), as protected (FairPlay) content is not played.
    open var outputObscuredDueToInsufficientExternalProtection: Bool { false }

    /// Whether HDR video can be shown as HDR: false, as video windows show standard dynamic
    /// range.
    open class var eligibleForHDRPlayback: Bool { false }

    /// Calls `block` with the current time every `interval` of item time while playing, and
    /// when playback starts, stops or jumps; on `queue` (nil: the main queue). Keep the
    /// returned token to remove the observer.
    open func addPeriodicTimeObserver(forInterval interval: CMTime, queue: DispatchQueue?,
                                      using block: @escaping @Sendable (CMTime) -> Void) -> Any {
        engine.timeObservers.add(.periodic(interval), queue: queue ?? .main, block: block)
    }

    /// Calls `block` each time playback crosses one of `times` (CMTime values in NSValue) going
    /// forward; on `queue` (nil: the main queue).
    open func addBoundaryTimeObserver(forTimes times: [NSValue], queue: DispatchQueue?,
                                      using block: @escaping @Sendable () -> Void) -> Any {
        engine.timeObservers.add(.boundary(times.map(\.timeValue)), queue: queue ?? .main) { _ in block() }
    }

    /// Removes a time observer added by one of the `add…TimeObserver` methods.
    open func removeTimeObserver(_ observer: Any) {
        guard let token = observer as? PlaybackTimeObservers.Token else {
            Misuse.fail(.unknownTimeObserver)
        }
        engine.timeObservers.remove(token)
    }

    /// Observes a property (`status`, `rate`, `timeControlStatus`, `currentItem`, …), as
    /// key-value observing does on Apple platforms; reports run on the player's thread. Keep the
    /// returned observation as long as reports are wanted.
    public func observe<Value>(_ keyPath: KeyPath<AVPlayer, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (AVPlayer, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation {
        engine.state.observers.observe(self, keyPath, options: options, changeHandler: changeHandler)
    }

    /// Posted (with the player as object) when its rate changed; the user info says why under
    /// `rateDidChangeReasonKey`.
    public static let rateDidChangeNotification = Notification.Name("AVPlayerRateDidChangeNotification")
    /// The user-info key of a rate change notification's `RateDidChangeReason`.
    public static let rateDidChangeReasonKey = "AVPlayerRateDidChangeReasonKey"
    /// Posted when `eligibleForHDRPlayback` changed: never here, as it does not change.
    public static let eligibleForHDRPlaybackDidChangeNotification = Notification.Name("AVPlayerEligibleForHDRPlaybackDidChangeNotification")
}
