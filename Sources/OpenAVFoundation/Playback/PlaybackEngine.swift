import CaptureDevices
import Dispatch
import Foundation
import HostSystem
import Logging
import OpenCoreMedia

/// The work behind a player, on a thread of its own: the request queue (items, rate, seeks,
/// outputs changed) and each item's life cycle (made ready, read, played, ended or failed, the
/// next one begun), stalls of network items, and the state the player's observable properties
/// come from (`state`: every write reports to the player's observers). The player's methods
/// only leave requests there, which wakes the thread. Each other job has a type of its own:
/// - `ItemReading`: an item's one reading (sound, pictures, timed metadata);
/// - `SoundStream`: the sound stream and what is written to it, which moves the clock;
/// - `PlaybackClock`: the item time at any host time;
/// - `PlaybackSeek`: where a seek lands;
/// - `PlaybackTimeObservers`: the periodic and boundary time observers.
final class PlaybackEngine: @unchecked Sendable {
    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")
    /// The longest the thread waits between looks at the clock while playing.
    private static let tick: UInt64 = 10_000_000

    let clock = PlaybackClock()
    /// The player's time observers, told as the clock moves.
    let timeObservers = PlaybackTimeObservers()
    /// The sound server the player plays to: the one capture discovery asks, when the player was made.
    let soundServer: String? = PulseAudioDiscovery.server

    /// The requests left for the thread, and what the player's properties come from.
    struct Requests {
        /// The items in play order; the first is the current one.
        var queue: [AVPlayerItem] = []
        /// The rate asked for (never below 0).
        var rate: Float = 0
        var volume: Float = 1
        var isMuted = false
        var actionAtItemEnd: AVPlayer.ActionAtItemEnd
        var pendingSeek: PlaybackSeek?
        var itemChanged = false
        var outputsChangedFor: AVPlayerItem?
        var shutdown = false
        var status: AVPlayer.Status = .unknown
        /// The sink sound goes to: the one asked for, else the one the server chose once playing.
        var sinkName: String?
        /// Whether the clock runs (set by the thread).
        var running = false
        /// Whether playback waits for a network item's data (stalled), not yet enough at hand
        /// to go on.
        var stalled = false
        // The player's own settings.
        var defaultRate: Float = 1
        var automaticallyWaitsToMinimizeStalling = true
        var allowsExternalPlayback = true
        var appliesSelectionCriteria = true
    }
    /// The requests and the player's state: a write wakes the thread and reports to the
    /// player's observers.
    let state: ObservedState<Requests>
    weak var player: AVPlayer?
    /// The player's media selection criteria, by characteristic (read as items become ready).
    let selectionCriteria = Locked([AVMediaCharacteristic: AVPlayerMediaSelectionCriteria]())

    /// Whether items' choices follow the selection criteria (`appliesMediaSelectionCriteriaAutomatically`).
    var appliesSelectionCriteria: Bool {
        get { state.appliesSelectionCriteria }
        set { state.appliesSelectionCriteria = newValue }
    }

    // The thread's own state.
    private var playingItem: AVPlayerItem? {
        didSet {
            guard oldValue !== playingItem, let oldValue else { return }
            _ = oldValue.accessRecord.setWatching(false, at: oldValue.state.restingTime, indicatedBitrate: -1)
        }
    }
    /// The sound stream and what is written to it: the master clock.
    private lazy var stream = SoundStream(server: soundServer)
    /// The item whose reading waits until something takes from it (`startDeferredReading`).
    private var deferredReading: AVPlayerItem?
    /// Whether the clock runs: set by the thread, read by `timeControl` from any thread.
    private var running: Bool {
        get { state.running }
        set {
            state.running = newValue
            noteWatching()
        }
    }
    /// How much sound a stalled item must have at hand before it plays on, in seconds.
    private static let resumeSeconds = 1.0
    /// The sound stream's position, and since when (host nanoseconds) it has been there.
    private var playedWatch: (frames: Int64, since: UInt64) = (0, 0)
    /// How long a stream's position may stand still, waiting for data, before it is a stall.
    private static let stillNanoseconds: UInt64 = 200_000_000
    private var endedItem: AVPlayerItem?

    init(actionAtItemEnd: AVPlayer.ActionAtItemEnd) {
        state = ObservedState(Requests(actionAtItemEnd: actionAtItemEnd))
        let thread = Thread { [self] in run() }
        thread.name = "OpenAVFoundation.AVPlayer"
        thread.start()
    }

    /// Ends the thread (the player is gone).
    func stop() {
        state.shutdown = true
    }

    // MARK: Requests

    /// The items in play order; the first is the current one.
    var items: [AVPlayerItem] { state.queue }

    /// Replaces the whole queue; the first item becomes current (from its resting time).
    func setItems(_ items: [AVPlayerItem]) {
        let player = player
        let left = state.update { state -> [AVPlayerItem] in
            let left = state.queue.filter { item in !items.contains { $0 === item } }
            if state.queue.first !== items.first { state.itemChanged = true }
            state.queue = items
            return left
        }
        for item in left where item.player === player { item.player = nil }
        for item in items { item.player = player }
    }

    /// Changes the queue with `change`; the current item stays unless `change` removed it.
    func editItems(_ change: (inout [AVPlayerItem]) -> Void) {
        var edited = items
        change(&edited)
        setItems(edited)
    }

    /// The sink sound goes to; setting it moves the sound there.
    var sinkName: String? {
        get { state.sinkName }
        set {
            state.update { state in
                state.sinkName = newValue
                state.itemChanged = true
            }
        }
    }

    /// Asks for a seek; a seek still pending is told it did not finish.
    func seek(_ seek: PlaybackSeek) {
        let replaced = state.update { state -> PlaybackSeek? in
            defer { state.pendingSeek = seek }
            return state.pendingSeek
        }
        if let completion = replaced?.completion { DispatchQueue.global().async { completion(false) } }
    }

    /// Drops the seek asked for and not yet begun, telling it it did not finish.
    func cancelPendingSeek() {
        let dropped = state.update { state -> PlaybackSeek? in
            defer { state.pendingSeek = nil }
            return state.pendingSeek
        }
        if let completion = dropped?.completion { DispatchQueue.global().async { completion(false) } }
    }

    /// An item's outputs changed: its video decoding restarts where it stands.
    func outputsChanged(of item: AVPlayerItem) {
        state.outputsChangedFor = item
    }

    /// Whether playback is under way, and why not.
    var timeControl: (status: AVPlayer.TimeControlStatus, reason: AVPlayer.WaitingReason?) {
        let (rate, item, playing) = state.read { ($0.rate, $0.queue.first, $0.running && !$0.stalled) }
        guard rate > 0 else { return (.paused, nil) }
        guard let item else { return (.waitingToPlayAtSpecifiedRate, .noItemToPlay) }
        switch item.status {
        case .readyToPlay: return playing ? (.playing, nil) : (.waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
        case .unknown: return (.waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
        case .failed: return (.waitingToPlayAtSpecifiedRate, .noItemToPlay)
        }
    }

    // MARK: The thread

    private func run() {
        while true {
            // The requests, taken (an update, which reports, only when one is pending).
            var requests = state.read { $0 }
            if requests.shutdown { break }
            if requests.itemChanged || requests.pendingSeek != nil || requests.outputsChangedFor != nil {
                requests = state.update { state in
                    defer {
                        state.itemChanged = false
                        state.pendingSeek = nil
                        state.outputsChangedFor = nil
                    }
                    return state
                }
            }
            let (changed, seek, outputsChanged) = (requests.itemChanged, requests.pendingSeek, requests.outputsChangedFor)
            let current = requests.queue.first
            let wantedRate = requests.rate

            if changed || current !== playingItem {
                begin(current, at: current?.state.restingTime ?? .zero)
            }
            if let seek { perform(seek) }
            if let outputsChanged, outputsChanged === playingItem, outputsChanged !== deferredReading, seek == nil,
               outputsChanged.status == .readyToPlay {
                restartOutputs(of: outputsChanged)
            }
            startDeferredReading(wanted: wantedRate > 0)
            let playable = playingItem?.status == .readyToPlay && endedItem !== playingItem
            setRunning(playable && wantedRate > 0, rate: Double(wantedRate))
            if running {
                stream.changeRate(to: Double(wantedRate))
                playStep(rate: Double(wantedRate))
            }
            if let item = playingItem, item.status == .readyToPlay {
                let now = clock.now
                deliverMetadata(of: item, through: now)
                deliverSubtitles(of: item, through: now)
            }
            timeObservers.fire(at: clampedNow())
            wait(playing: running)
        }
        playingItem?.stopOutputs()
        stream.close()
    }

    /// Sleeps until the next look at the clock (a tick while playing), or until a request.
    private func wait(playing: Bool) {
        if playing, stream.isOpen {
            if let reason = stream.iterate(timeout: Self.tick) { soundLost(reason) }
            return
        }
        let playingItem = playingItem
        state.wait(until: Date().addingTimeInterval(playing ? Double(Self.tick) / 1e9 : 0.1)) { state in
            state.shutdown || state.pendingSeek != nil || state.itemChanged || state.outputsChangedFor != nil
                || state.queue.first !== playingItem
        }
    }

    /// Makes `item` the one playing, from `time`.
    private func begin(_ item: AVPlayerItem?, at time: CMTime) {
        if let previous = playingItem, previous !== item {
            let time = clampedNow()
            previous.state.restingTime = time
            previous.stopOutputs()
        }
        playingItem = item
        endedItem = nil
        if let previous = stream.feedItem, previous !== item { setStalled(false, item: previous) }
        guard let item else {
            stream.close()
            clock.set(.zero, rate: 0)
            return
        }
        item.prepare()
        if item.status == .readyToPlay {
            if state.status == .unknown { state.status = .readyToPlay }
        } else if item.status == .failed, state.actionAtItemEnd == .advance {
            // A queue goes on with its next item.
            leave(item)
            stream.close()
            return
        }
        openMedia(of: item, from: time, keepingStream: true)
    }

    /// Opens the item's sound and video from `time`: after what the sound stream holds (a new
    /// item: the previous one's end plays out first), or in a fresh stream (a seek).
    private func openMedia(of item: AVPlayerItem, from time: CMTime, keepingStream: Bool) {
        if keepingStream, stream.isOpen {
            stream.forgetFeed()
        } else {
            stream.close()
        }
        running = false
        let start = max(.zero, min(time, item.endTime.isNumeric ? item.endTime : time))
        clock.set(start, rate: 0)
        timeObservers.start(at: start)
        item.state.restingTime = start
        item.reading = nil
        deferredReading = item
        guard item.status == .readyToPlay else { return }
        startDeferredReading(wanted: state.rate > 0)
    }

    /// Makes the playing item's reading that `openMedia` left for later, once something
    /// takes from it: playing is asked for (`wanted`), or the item has outputs (a picture to
    /// show, metadata to give). Until then nothing is read, so that outputs added to an item
    /// that has not started yet (a window's layer, once the item's size is known) join its
    /// one reading instead of making a second one.
    private func startDeferredReading(wanted: Bool) {
        guard let item = deferredReading, item === playingItem, item.status == .readyToPlay,
              wanted || item.outputs.contains(where: { $0 is AVPlayerItemVideoOutput || $0 is AVPlayerItemMetadataOutput || $0 is AVPlayerItemLegibleOutput })
        else { return }
        deferredReading = nil
        let start = item.state.restingTime
        startReading(of: item, from: start, soundFrom: start, rate: 1)
    }

    /// Makes the item's one reading from `time` in place of the one it had (see
    /// `ItemReading`): the pictures for its video outputs, the groups for its metadata outputs
    /// and, from `soundFrom` (nil: none), its sound at `rate`, fed to the stream after what it
    /// holds.
    private func startReading(of item: AVPlayerItem, from time: CMTime, soundFrom: CMTime?, rate: Double) {
        let hasAudio = item.tracks.contains { $0.isEnabled && $0.assetTrack?.mediaType == .audio }
        let reading = ItemReading(item, from: time, soundFrom: hasAudio && soundFrom != nil && openSound() ? soundFrom : nil,
                                  rate: rate, picturesAhead: running ? VideoFrameQueue.capacity : 1)
        item.reading = reading
        item.outputs.forEach { output in
            (output as? AVPlayerItemVideoOutput)?.flushed()
            (output as? AVPlayerItemMetadataOutput)?.flush()
            (output as? AVPlayerItemLegibleOutput)?.flush()
        }
        guard let sound = reading.sound, let soundFrom else { return }
        stream.feed(sound, of: item, from: soundFrom, rate: rate)
    }

    /// Opens the sound stream to the sink asked for when there is none; false when no sound
    /// can be played. The sink the server chose becomes the player's.
    private func openSound() -> Bool {
        guard let sink = stream.open(sink: sinkName) else { return false }
        state.update { state in if state.sinkName == nil { state.sinkName = sink } }
        return true
    }

    /// An item's outputs changed: its reading starts again where it stands, the pictures from
    /// the clock's time and the sound (when it is still being fed) from what the stream holds,
    /// so that nothing already written is heard twice.
    private func restartOutputs(of item: AVPlayerItem) {
        if item.reading?.serves(item) == true { return }
        if endedItem === item {
            // At its end nothing more is read; a seek or a new play reads again.
            item.reading = nil
            if stream.feedItem === item { stream.stopFeeding() }
            deferredReading = item
            return
        }
        var soundFrom: CMTime?
        if item === stream.feedItem, let end = stream.writtenEnd {
            soundFrom = end
            stream.stopFeeding()
        }
        startReading(of: item, from: clampedNow(), soundFrom: soundFrom, rate: stream.segments.last?.rate ?? 1)
    }

    /// Hands the groups of the item's metadata tracks due by `time` (and its outputs' advance
    /// intervals) to its metadata outputs, which give them to their delegates when due.
    private func deliverMetadata(of item: AVPlayerItem, through time: CMTime) {
        let outputs = item.outputs.compactMap { $0 as? AVPlayerItemMetadataOutput }
        guard !outputs.isEmpty else { return }
        let advance = outputs.map(\.advanceIntervalForDelegateInvocation).max() ?? 0
        for feed in item.reading?.metadata ?? [] {
            let groups = feed.take(through: time + CMTime(seconds: advance, preferredTimescale: 1_000_000))
            guard !groups.isEmpty else { continue }
            outputs.forEach { $0.receive(groups, from: feed.playerItemTrack) }
        }
        outputs.forEach { $0.deliver(through: time) }
    }

    /// Hands the cues of the item's chosen subtitle track due by `time` (and its legible
    /// outputs' advance intervals) to its legible outputs, which give them to their delegates
    /// when due.
    private func deliverSubtitles(of item: AVPlayerItem, through time: CMTime) {
        let outputs = item.outputs.compactMap { $0 as? AVPlayerItemLegibleOutput }
        guard !outputs.isEmpty else { return }
        let advance = outputs.map(\.advanceIntervalForDelegateInvocation).max() ?? 0
        if let cues = item.reading?.subtitles?.take(through: time + CMTime(seconds: advance, preferredTimescale: 1_000_000)), !cues.isEmpty {
            outputs.forEach { $0.receive(cues) }
        }
        outputs.forEach { $0.deliver(through: time) }
    }

    /// The sound server went away: playback goes on, silent, on the host clock.
    private func soundLost(_ reason: String) {
        Self.logger.warning("the sound server went away (\(reason)); playing on on the host clock")
        let now = clock.now
        stream.lose()
        clock.set(now, rate: running ? clock.rate : 0)
        // The item's reading goes on without its sound, which nothing takes any more.
        if let item = playingItem, item.status == .readyToPlay { startReading(of: item, from: clampedNow(), soundFrom: nil, rate: 1) }
    }

    /// Starts or stops the clock (and the sound) when playing starts or stops.
    private func setRunning(_ value: Bool, rate: Double) {
        if value == running {
            // A new rate while running: the sound's stream sets the clock when there is one.
            if value, stream.segments.isEmpty, clock.rate != rate { clock.set(clock.now, rate: rate) }
            return
        }
        running = value
        // Paused, only the picture shown is decoded (a paused player that seeks decodes nothing
        // past it); playing, a few ahead.
        playingItem?.videoQueue?.decodeAhead(value ? VideoFrameQueue.capacity : 1)
        let now = clampedNow()
        if stream.isOpen {
            // The stream is filled before it is uncorked: started with less than its buffer it
            // runs dry at once, and the server skips what comes late.
            if value {
                stream.changeRate(to: rate)
                writeSound()
            }
            stream.setCorked(!value)
        }
        clock.set(now, rate: value ? rate : 0)
        if !value, let item = playingItem { item.state.restingTime = now }
        timeObservers.firePeriodic(at: now)
    }

    /// One look at the clock while playing: sound written, the clock moved to it, ends noticed.
    private func playStep(rate: Double) {
        guard let item = playingItem else { return }
        if stream.isOpen {
            writeSound()
            followSound(rate: rate)
        }
        if let error = stream.feed?.error ?? item.videoQueue?.error {
            failToEnd(item, error)
            return
        }
        guard let current = playingItem, current === item, endedItem !== item else { return }
        // A live stream's end is unknown beforehand: it ends once what is read of it (its
        // sound, its pictures) has reached the end and played out; with nothing read, never.
        let atEnd: Bool
        if item.endTime.isNumeric {
            atEnd = clock.now >= item.endTime && stream.isPlayedOut
        } else {
            let soundEnded = stream.feed.map { $0.isFinished && stream.isPlayedOut }
            let picturesEnded = item.videoQueue?.playOut(to: clock.now)
            atEnd = (soundEnded != nil || picturesEnded != nil) && soundEnded != false && picturesEnded != false
        }
        if atEnd { reachedEnd(of: item) }
    }

    /// Writes as much sound as the stream takes; at the end of an item's sound, the next item's
    /// sound follows at once when the player advances (gapless), else the stream is told to
    /// play out what it has.
    private func writeSound() {
        let (volume, muted) = state.read { ($0.volume, $0.isMuted) }
        if let item = stream.feedItem, !followStall(of: item) { return }
        guard stream.write(gain: muted ? 0 : volume), let feed = stream.feed, let feedItem = stream.feedItem else { return }
        let next = state.read { state -> AVPlayerItem? in
            guard state.actionAtItemEnd == .advance, let index = state.queue.firstIndex(where: { $0 === feedItem }),
                  index + 1 < state.queue.count else { return nil }
            return state.queue[index + 1]
        }
        if let next, feed.error == nil {
            next.prepare()
            stream.stopFeeding()
            if next.status == .readyToPlay, next.tracks.contains(where: { $0.isEnabled && $0.assetTrack?.mediaType == .audio }) {
                let start = next.state.restingTime
                startReading(of: next, from: start, soundFrom: start, rate: feed.rate)
                if stream.feed != nil { return }
                next.reading = nil
            }
        }
        stream.playOut()
    }

    /// Notices a network item's sound running out (everything written was played and nothing
    /// more has arrived: a stall, told once by `playbackStalledNotification`) and, stalled,
    /// whether enough has arrived to play on; whether sound may be written now.
    private func followStall(of item: AVPlayerItem) -> Bool {
        let stalled = state.stalled
        guard let feed = stream.feed, let (seconds, ended) = feed.buffered else {
            if stalled { setStalled(false, item: item) }
            return true
        }
        let framesWritten = stream.framesWritten
        if let segment = stream.segments.last(where: { $0.item === item }) {
            // At hand: what the stream has not played yet, and what is read ahead.
            let unplayed = Double(max(0, framesWritten - stream.playedFrames)) / Double(SoundFeed.sampleRate) * segment.rate
            let end = clampedNow() + CMTime(seconds: unplayed + seconds * segment.rate, preferredTimescale: 1000)
            let range = CMTimeRange(start: segment.start, end: ended && item.endTime.isNumeric ? item.endTime : min(end, item.endTime))
            item.state.loadedRange = range
        }
        if stalled {
            guard ended || seconds >= Self.resumeSeconds else { return false }
            setStalled(false, item: item)
            return true
        }
        // The stream has played all it was given, or has stopped moving (a sound server keeps
        // the last bit of an underrun stream back until more comes).
        let played = stream.playedFrames
        let now = DispatchTime.now().uptimeNanoseconds
        if played != playedWatch.frames { playedWatch = (played, now) }
        let still = now - playedWatch.since > Self.stillNanoseconds
        // Before any of its sound was written the item waits for its first data: not a stall.
        let begun = stream.segments.last(where: { $0.item === item }).map { framesWritten > $0.frame } ?? false
        if feed.isWaiting, !ended, begun, played >= framesWritten || still {
            setStalled(true, item: item)
            NotificationCenter.default.post(name: AVPlayerItem.playbackStalledNotification, object: item)
            if item.switchToLowerVariant() {
                item.accessRecord.startEntry(at: clampedNow(), indicatedBitrate: item.indicatedBitrate)
                NotificationCenter.default.post(name: AVPlayerItem.newAccessLogEntryNotification, object: item)
                // An HTTP Live Stream goes on from here in its next lower variant, in the same
                // sound stream (everything written to it was played).
                openMedia(of: item, from: clampedNow(), keepingStream: true)
            }
            return false
        }
        return true
    }

    /// Records a stall beginning or ending, for `timeControlStatus` and the item's buffer state.
    private func setStalled(_ value: Bool, item: AVPlayerItem) {
        // The item's buffer state first: the player's observers, told of the new
        // `timeControlStatus`, read it.
        item.state.isStalled = value
        let began = state.update { state -> Bool in
            defer { state.stalled = value }
            return value && !state.stalled
        }
        if began { item.accessRecord.recordStall() }
        noteWatching()
    }

    /// Tells the playing item's access log whether it plays now (running and not stalled), at
    /// item time `time` (the clock's when nil); its first time opens the log, which is
    /// announced.
    private func noteWatching(at time: CMTime? = nil) {
        guard let item = playingItem else { return }
        let watching = item.status == .readyToPlay && state.read { $0.running && !$0.stalled }
        if item.accessRecord.setWatching(watching, at: time ?? clampedNow(), indicatedBitrate: item.indicatedBitrate) {
            NotificationCenter.default.post(name: AVPlayerItem.newAccessLogEntryNotification, object: item)
        }
    }

    /// Moves the clock to what the stream plays; an item whose sound has begun playing becomes
    /// the current one.
    private func followSound(rate: Double) {
        guard let (segment, time) = stream.follow() else { return }
        if segment.item !== playingItem, let previous = playingItem {
            // The next item's sound is playing: the previous one reached its end.
            endedItem = previous
            postEnd(of: previous)
            stream.removeSegments(of: previous)
            previous.stopOutputs()
            leave(previous)
            // The previous item stands at its end (its access log's last stretch ends there).
            let end = previous.endTime.isNumeric ? previous.endTime : clock.now
            previous.state.restingTime = end
            playingItem = segment.item
            noteWatching(at: segment.start)
            endedItem = nil
            timeObservers.start(at: segment.start)
        }
        if !stream.isPlayedOut { clock.set(time, rate: rate) }
    }

    /// The item played to its end: told, then what `actionAtItemEnd` says.
    private func reachedEnd(of item: AVPlayerItem) {
        endedItem = item
        let end = item.endTime.isNumeric ? item.endTime : clock.now
        clock.set(end, rate: 0)
        timeObservers.fire(at: clampedNow())
        postEnd(of: item)
        let action = state.actionAtItemEnd
        switch action {
        case .advance:
            leave(item)
            item.state.restingTime = end
        case .pause:
            state.rate = 0
            running = false
            item.state.restingTime = end
        case .none:
            running = false
        }
    }

    /// Takes `item`, which is done, off the front of the queue; it no longer has a player.
    private func leave(_ item: AVPlayerItem) {
        state.update { state in if state.queue.first === item { state.queue.removeFirst() } }
        item.player = nil
    }

    private func postEnd(of item: AVPlayerItem) {
        NotificationCenter.default.post(name: AVPlayerItem.didPlayToEndTimeNotification, object: item)
    }

    /// The item's media went bad while playing: told with the error, and stopped there.
    private func failToEnd(_ item: AVPlayerItem, _ error: Error) {
        let stoppedAt = clampedNow()
        item.state.restingTime = stoppedAt
        item.fail(error)
        endedItem = item
        clock.set(stoppedAt, rate: 0)
        stream.close()
        if state.actionAtItemEnd == .advance {
            leave(item)
        } else {
            state.rate = 0
        }
        running = false
        // Told once the player is in its new state (paused, or on to the next item).
        NotificationCenter.default.post(name: AVPlayerItem.failedToPlayToEndTimeNotification, object: item,
                                        userInfo: [AVPlayerItemFailedToPlayToEndTimeErrorKey: error])
    }

    /// Performs a seek on the current item; its completion is told once the first picture is
    /// decoded.
    private func perform(_ seek: PlaybackSeek) {
        guard let item = playingItem, item.status == .readyToPlay else {
            if let completion = seek.completion { DispatchQueue.global().async { completion(false) } }
            return
        }
        let target = seek.target(in: item)
        let wasRunning = running
        endedItem = nil
        openMedia(of: item, from: target, keepingStream: false)
        _ = item.videoQueue?.waitForFirstFrame(until: Date().addingTimeInterval(5))
        if wasRunning { running = false }
        NotificationCenter.default.post(name: AVPlayerItem.timeJumpedNotification, object: item)
        timeObservers.firePeriodic(at: target)
        if let completion = seek.completion { DispatchQueue.global().async { completion(true) } }
    }

    /// The clock's time, within the current item.
    private func clampedNow() -> CMTime {
        let now = clock.now
        guard let item = playingItem, item.status == .readyToPlay else { return max(.zero, now) }
        return max(.zero, min(now, item.endTime))
    }
}
