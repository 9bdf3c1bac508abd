import CaptureDevices
import Display
import Dispatch
import Foundation
import Logging
import MediaEngine
import OpenCoreMedia

/// The work behind a player, on a thread of its own: it readies the current item, feeds its
/// sound to the sound server (whose position is the master clock, or the host clock without
/// sound), starts the item's video decoding for its outputs, performs seeks, notices the end
/// of an item and moves on, and fires time observers. The player's methods only leave requests
/// here and wake the thread.
final class PlaybackEngine: @unchecked Sendable {
    /// A seek asked for, and whom to tell when it is done. Only the tolerance before the time
    /// counts: a key frame after it is not looked for.
    struct Seek {
        var time: CMTime
        var toleranceBefore: CMTime
        var completion: (@Sendable (Bool) -> Void)?
    }

    /// What a time observer watches for: every `interval` of item time, or boundary times.
    enum ObserverKind {
        case periodic(CMTime)
        case boundary([CMTime])
    }

    /// A time observer, and where and what it is told.
    private struct TimeObserver {
        let kind: ObserverKind
        let queue: DispatchQueue
        let block: @Sendable (CMTime) -> Void
    }

    /// The token `addPeriodicTimeObserver`/`addBoundaryTimeObserver` return.
    final class ObserverToken: @unchecked Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")
    /// The longest the thread waits between looks at the clock while playing.
    private static let tick: UInt64 = 10_000_000
    /// The longest a sound server gets to answer.
    private static let soundTimeout: UInt64 = 2_000_000_000

    let clock = PlaybackClock()
    /// The sound server the player plays to: the one capture discovery asks, when the player was made.
    let soundServer: String? = PulseAudioDiscovery.server

    private let condition = NSCondition()
    weak var player: AVPlayer?
    // Requests and state, under `condition`.
    private var queue: [AVPlayerItem] = []
    private var requestedRate: Float = 0
    private var gainValue: (volume: Float, muted: Bool) = (1, false)
    private var endAction: AVPlayer.ActionAtItemEnd = .pause
    private var pendingSeek: Seek?
    private var itemChanged = false
    private var outputsChangedFor: AVPlayerItem?
    private var shutdown = false
    private var statusValue: AVPlayer.Status = .unknown
    private var sinkValue: String?
    private var observers: [Int: TimeObserver] = [:]
    private var nextObserverID = 0

    // The thread's own state.
    private var playingItem: AVPlayerItem? {
        didSet {
            guard oldValue !== playingItem, let oldValue else { return }
            _ = oldValue.accessRecord.setWatching(false, at: oldValue.lock.withLock { oldValue.restingTime }, indicatedBitrate: -1)
        }
    }
    private var output: PulseAudioOutput?
    private var soundUnavailable = false
    /// Where each item's sound starts in the stream (frames written before it) and its item time.
    private var segments: [(frame: Int64, item: AVPlayerItem, start: CMTime, rate: Double)] = []
    private var framesWritten: Int64 = 0
    /// The stream's position at the last look, and whether it has played all there is.
    private var lastPlayed: Int64 = -1
    private var soundPlayedOut = false
    /// Whether the stream was told to play out its last, short buffer.
    private var triggered = false
    private var feed: SoundFeed?
    private var feedItem: AVPlayerItem?
    /// The item whose reading waits until something takes from it (`startDeferredReading`).
    private var deferredReading: AVPlayerItem?
    /// Whether the clock runs: set by the thread, read by `timeControl` from any thread.
    private var running: Bool {
        get { condition.withLock { runningValue } }
        set {
            condition.withLock { runningValue = newValue }
            noteWatching()
        }
    }
    private var runningValue = false
    /// Whether playback waits for a network item's data (stalled), not yet enough at hand to
    /// go on; behind `condition`.
    private var stalledValue = false
    /// How much sound a stalled item must have at hand before it plays on, in seconds.
    private static let resumeSeconds = 1.0
    /// The sound stream's position, and since when (host nanoseconds) it has been there.
    private var playedWatch: (frames: Int64, since: UInt64) = (0, 0)
    /// How long a stream's position may stand still, waiting for data, before it is a stall.
    private static let stillNanoseconds: UInt64 = 200_000_000
    private var lastObserved: CMTime = .zero
    private var endedItem: AVPlayerItem?

    init(actionAtItemEnd: AVPlayer.ActionAtItemEnd) {
        endAction = actionAtItemEnd
        let thread = Thread { [self] in run() }
        thread.name = "OpenAVFoundation.AVPlayer"
        thread.start()
    }

    /// Ends the thread (the player is gone).
    func stop() {
        condition.withLock {
            shutdown = true
            condition.broadcast()
        }
    }

    // MARK: Requests

    /// The items in play order; the first is the current one.
    var items: [AVPlayerItem] { condition.withLock { queue } }

    /// Replaces the whole queue; the first item becomes current (from its resting time).
    func setItems(_ items: [AVPlayerItem]) {
        condition.withLock {
            for item in queue where !items.contains(where: { $0 === item }) { item.player = nil }
            for item in items { item.player = player }
            let currentChanged = queue.first !== items.first
            queue = items
            if currentChanged { itemChanged = true }
            condition.broadcast()
        }
    }

    /// Changes the queue with `change`; the current item stays unless `change` removed it.
    func editItems(_ change: (inout [AVPlayerItem]) -> Void) {
        var edited = items
        change(&edited)
        setItems(edited)
    }

    var rate: Float {
        get { condition.withLock { requestedRate } }
        set {
            condition.withLock {
                requestedRate = max(0, newValue)
                condition.broadcast()
            }
        }
    }

    var gain: (volume: Float, muted: Bool) {
        get { condition.withLock { gainValue } }
        set { condition.withLock { gainValue = newValue } }
    }

    var actionAtItemEnd: AVPlayer.ActionAtItemEnd {
        get { condition.withLock { endAction } }
        set { condition.withLock { endAction = newValue } }
    }

    var status: AVPlayer.Status { condition.withLock { statusValue } }

    /// The sink sound goes to: the one asked for, else the one the server chose once playing.
    var sinkName: String? {
        get { condition.withLock { sinkValue } }
        set {
            condition.withLock {
                sinkValue = newValue
                itemChanged = true
                condition.broadcast()
            }
        }
    }

    /// Asks for a seek; a seek still pending is told it did not finish.
    func seek(_ seek: Seek) {
        let replaced = condition.withLock { () -> Seek? in
            defer {
                pendingSeek = seek
                condition.broadcast()
            }
            return pendingSeek
        }
        if let completion = replaced?.completion { DispatchQueue.global().async { completion(false) } }
    }

    /// Drops the seek asked for and not yet begun, telling it it did not finish.
    func cancelPendingSeek() {
        let dropped = condition.withLock { () -> Seek? in
            defer { pendingSeek = nil }
            return pendingSeek
        }
        if let completion = dropped?.completion { DispatchQueue.global().async { completion(false) } }
    }

    /// An item's outputs changed: its video decoding restarts where it stands.
    func outputsChanged(of item: AVPlayerItem) {
        condition.withLock {
            outputsChangedFor = item
            condition.broadcast()
        }
    }

    func addObserver(_ kind: ObserverKind, queue: DispatchQueue, block: @escaping @Sendable (CMTime) -> Void) -> ObserverToken {
        condition.withLock {
            nextObserverID += 1
            observers[nextObserverID] = TimeObserver(kind: kind, queue: queue, block: block)
            return ObserverToken(id: nextObserverID)
        }
    }

    func removeObserver(_ token: ObserverToken) {
        _ = condition.withLock { observers.removeValue(forKey: token.id) }
    }

    /// Whether playback is under way, and why not.
    var timeControl: (status: AVPlayer.TimeControlStatus, reason: AVPlayer.WaitingReason?) {
        condition.withLock {
            guard requestedRate > 0 else { return (.paused, nil) }
            guard let item = queue.first else { return (.waitingToPlayAtSpecifiedRate, .noItemToPlay) }
            switch item.status {
            case .readyToPlay: return runningValue && !stalledValue ? (.playing, nil) : (.waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
            case .unknown: return (.waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
            case .failed: return (.waitingToPlayAtSpecifiedRate, .noItemToPlay)
            }
        }
    }

    // MARK: The thread

    private func run() {
        while true {
            condition.lock()
            if shutdown {
                condition.unlock()
                break
            }
            let changed = itemChanged
            itemChanged = false
            let seek = pendingSeek
            pendingSeek = nil
            let outputsChanged = outputsChangedFor
            outputsChangedFor = nil
            let current = queue.first
            let wantedRate = requestedRate
            condition.unlock()

            if changed || current !== playingItem {
                begin(current, at: current?.restingTime ?? .zero)
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
                if let feed, feed.rate != Double(wantedRate) { changeSoundRate(to: Double(wantedRate)) }
                playStep(rate: Double(wantedRate))
            }
            if let item = playingItem, item.status == .readyToPlay { deliverMetadata(of: item, through: clock.now) }
            fireObservers()
            player?.keyValueObservers.recheck()
            playingItem?.keyValueObservers.recheck()
            wait(playing: running)
        }
        playingItem?.stopOutputs()
        output = nil
    }

    /// Sleeps until the next look at the clock (a tick while playing), or until a request.
    private func wait(playing: Bool) {
        if playing, let output {
            if !output.iterate(timeout: Self.tick) { soundLost(output.errorText) }
            return
        }
        condition.withLock {
            guard !shutdown, pendingSeek == nil, !itemChanged, outputsChangedFor == nil,
                  (queue.first === playingItem) else { return }
            _ = condition.wait(until: Date().addingTimeInterval(playing ? Double(Self.tick) / 1e9 : 0.1))
        }
    }

    /// Makes `item` the one playing, from `time`.
    private func begin(_ item: AVPlayerItem?, at time: CMTime) {
        if let previous = playingItem, previous !== item {
            let time = clampedNow()
            previous.lock.withLock { previous.restingTime = time }
            previous.stopOutputs()
        }
        playingItem = item
        endedItem = nil
        if let previous = feedItem, previous !== item { setStalled(false, item: previous) }
        guard let item else {
            closeSound()
            clock.set(.zero, rate: 0)
            return
        }
        item.prepare()
        if item.status == .readyToPlay {
            condition.withLock { if statusValue == .unknown { statusValue = .readyToPlay } }
        } else if item.status == .failed, actionAtItemEnd == .advance {
            // A queue goes on with its next item.
            condition.withLock {
                if queue.first === item { queue.removeFirst() }
                item.player = nil
            }
            closeSound()
            return
        }
        openMedia(of: item, from: time, keepingStream: true)
    }

    /// Opens the item's sound and video from `time`: after what the sound stream holds (a new
    /// item: the previous one's end plays out first), or in a fresh stream (a seek).
    private func openMedia(of item: AVPlayerItem, from time: CMTime, keepingStream: Bool) {
        if keepingStream, output != nil {
            feed = nil
            feedItem = nil
            segments = []
            soundPlayedOut = false
            triggered = false
        } else {
            closeSound()
        }
        running = false
        let start = max(.zero, min(time, item.endTime.isNumeric ? item.endTime : time))
        clock.set(start, rate: 0)
        lastObserved = start
        item.lock.withLock { item.restingTime = start }
        item.reading = nil
        deferredReading = item
        guard item.status == .readyToPlay else { return }
        startDeferredReading(wanted: rate > 0)
    }

    /// Makes the playing item's reading that `openMedia` left for later, once something
    /// takes from it: playing is asked for (`wanted`), or the item has outputs (a picture to
    /// show, metadata to give). Until then nothing is read, so that outputs added to an item
    /// that has not started yet (a window's layer, once the item's size is known) join its
    /// one reading instead of making a second one.
    private func startDeferredReading(wanted: Bool) {
        guard let item = deferredReading, item === playingItem, item.status == .readyToPlay,
              wanted || item.outputs.contains(where: { $0 is AVPlayerItemVideoOutput || $0 is AVPlayerItemMetadataOutput })
        else { return }
        deferredReading = nil
        let start = item.lock.withLock { item.restingTime }
        startReading(of: item, from: start, soundFrom: start, rate: 1)
    }

    /// Goes on with the sound at a new rate in the same stream and the same reading: what is
    /// written plays out (at most the stream's buffer), then what the old stretching holds,
    /// then the sound stretched for the new rate.
    private func changeSoundRate(to rate: Double) {
        guard let feed, let item = feedItem, let change = feed.changeRate(to: rate) else { return }
        addSegment(at: framesWritten + Int64(change.framesBefore), item: item, start: change.itemTime, rate: rate)
    }

    /// Notes that the stream's frames from `frame` on are `item`'s sound from item time `start`
    /// at `rate`; one that would begin at the same frame is replaced.
    private func addSegment(at frame: Int64, item: AVPlayerItem, start: CMTime, rate: Double) {
        if let last = segments.last, last.frame >= frame { segments.removeLast() }
        segments.append((frame, item, start, rate))
    }

    /// Makes the item's one reading from `time` in place of the one it had (see
    /// `ItemReading`): the pictures for its video outputs, the groups for its metadata outputs
    /// and, from `soundFrom` (nil: none), its sound at `rate`, fed to the stream after what it
    /// holds.
    private func startReading(of item: AVPlayerItem, from time: CMTime, soundFrom: CMTime?, rate: Double) {
        let hasAudio = item.tracks.contains { $0.isEnabled && $0.assetTrack?.mediaType == .audio }
        let reading = ItemReading(item, from: time, soundFrom: hasAudio && soundFrom != nil && openOutput() ? soundFrom : nil,
                                  rate: rate, picturesAhead: running ? VideoFrameQueue.capacity : 1)
        item.reading = reading
        item.outputs.forEach { output in
            (output as? AVPlayerItemVideoOutput)?.flushed()
            (output as? AVPlayerItemMetadataOutput)?.flush()
        }
        guard let sound = reading.sound, let soundFrom else { return }
        feed = sound
        feedItem = item
        addSegment(at: framesWritten, item: item, start: soundFrom, rate: rate)
        triggered = false
        soundPlayedOut = false
    }

    /// An item's outputs changed: its reading starts again where it stands, the pictures from
    /// the clock's time and the sound (when it is still being fed) from what the stream holds,
    /// so that nothing already written is heard twice.
    private func restartOutputs(of item: AVPlayerItem) {
        if item.reading?.serves(item) == true { return }
        if endedItem === item {
            // At its end nothing more is read; a seek or a new play reads again.
            item.reading = nil
            if feedItem === item { feed = nil }
            deferredReading = item
            return
        }
        var soundFrom: CMTime?
        if item === feedItem, feed != nil, let segment = segments.last {
            let written = Double(framesWritten - segment.frame) * segment.rate
            soundFrom = segment.start + CMTime(value: Int64(written.rounded()), timescale: CMTimeScale(SoundFeed.sampleRate))
            feed = nil
        }
        startReading(of: item, from: clampedNow(), soundFrom: soundFrom, rate: segments.last?.rate ?? 1)
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

    /// Opens the sound stream when there is none; false when no sound can be played.
    private func openOutput() -> Bool {
        if output != nil { return true }
        guard !soundUnavailable else { return false }
        do {
            let opened = try PulseAudioOutput(server: soundServer, sink: sinkName, sampleRate: SoundFeed.sampleRate,
                                              channelCount: SoundFeed.channelCount, timeout: Self.soundTimeout)
            output = opened
            condition.withLock { if sinkValue == nil { sinkValue = opened.sinkName } }
            return true
        } catch {
            Self.logger.warning("no sound: \(error); playing on the host clock")
            soundUnavailable = true
            return false
        }
    }

    private func closeSound() {
        output = nil
        feed = nil
        feedItem = nil
        segments = []
        framesWritten = 0
        lastPlayed = -1
        soundPlayedOut = false
        triggered = false
    }

    /// The sound server went away: playback goes on, silent, on the host clock.
    private func soundLost(_ reason: String) {
        Self.logger.warning("the sound server went away (\(reason)); playing on on the host clock")
        let now = clock.now
        closeSound()
        soundUnavailable = true
        clock.set(now, rate: running ? clock.rate : 0)
        // The item's reading goes on without its sound, which nothing takes any more.
        if let item = playingItem, item.status == .readyToPlay { startReading(of: item, from: clampedNow(), soundFrom: nil, rate: 1) }
    }

    /// Starts or stops the clock (and the sound) when playing starts or stops.
    private func setRunning(_ value: Bool, rate: Double) {
        if value == running {
            // A new rate while running: the sound's stream sets the clock when there is one.
            if value, segments.isEmpty, clock.rate != rate { clock.set(clock.now, rate: rate) }
            return
        }
        running = value
        // Paused, only the picture shown is decoded (a paused player that seeks decodes nothing
        // past it); playing, a few ahead.
        playingItem?.videoQueue?.decodeAhead(value ? VideoFrameQueue.capacity : 1)
        let now = clampedNow()
        if let output {
            // The stream is filled before it is uncorked: started with less than its buffer it
            // runs dry at once, and the server skips what comes late.
            if value {
                if let feed, feed.rate != rate { changeSoundRate(to: rate) }
                writeSound(to: output)
            }
            output.setCorked(!value, timeout: Self.soundTimeout)
        }
        clock.set(now, rate: value ? rate : 0)
        if !value, let item = playingItem { item.lock.withLock { item.restingTime = now } }
        firePeriodicObservers(at: now)
    }

    /// One look at the clock while playing: sound written, the clock moved to it, ends noticed.
    private func playStep(rate: Double) {
        guard let item = playingItem else { return }
        if let output {
            writeSound(to: output)
            followSound(of: output, rate: rate)
        }
        if let error = feed?.error ?? item.videoQueue?.error {
            failToEnd(item, error)
            return
        }
        guard let current = playingItem, current === item, endedItem !== item else { return }
        // A live stream's end is unknown beforehand: it ends once what is read of it (its
        // sound, its pictures) has reached the end and played out; with nothing read, never.
        let atEnd: Bool
        if item.endTime.isNumeric {
            atEnd = clock.now >= item.endTime && soundDone
        } else {
            let soundEnded = feed.map { $0.isFinished && soundDone }
            let picturesEnded = item.videoQueue?.playOut(to: clock.now)
            atEnd = (soundEnded != nil || picturesEnded != nil) && soundEnded != false && picturesEnded != false
        }
        if atEnd { reachedEnd(of: item) }
    }

    /// Whether the stream has played everything written for the current item.
    private var soundDone: Bool {
        guard output != nil, feed != nil || !segments.isEmpty else { return true }
        return soundPlayedOut
    }

    /// Writes as much sound as the stream takes; at the end of an item's sound, the next item's
    /// sound follows at once when the player advances (gapless), else the stream is told to
    /// play out what it has.
    private func writeSound(to output: PulseAudioOutput) {
        let (volume, muted) = gain
        if let item = feedItem, !followStall(of: item, output: output) { return }
        while let feed, !feed.isFinished {
            let writable = output.writableFrames
            guard writable > 0 else { return }
            let written = feed.take(writable, gain: muted ? 0 : volume) { output.write($0, frames: $1) }
            framesWritten += Int64(written)
            if written == 0 && !feed.isFinished { return }
        }
        guard let feed, feed.isFinished, let feedItem else { return }
        let next = condition.withLock { () -> AVPlayerItem? in
            guard endAction == .advance, let index = queue.firstIndex(where: { $0 === feedItem }), index + 1 < queue.count else { return nil }
            return queue[index + 1]
        }
        if let next, feed.error == nil {
            next.prepare()
            self.feed = nil
            if next.status == .readyToPlay, next.tracks.contains(where: { $0.isEnabled && $0.assetTrack?.mediaType == .audio }) {
                let start = next.lock.withLock { next.restingTime }
                startReading(of: next, from: start, soundFrom: start, rate: feed.rate)
                if self.feed != nil { return }
                next.reading = nil
            }
        }
        if !triggered {
            triggered = true
            output.trigger(timeout: Self.soundTimeout)
        }
    }

    /// Notices a network item's sound running out (everything written was played and nothing
    /// more has arrived: a stall, told once by `playbackStalledNotification`) and, stalled,
    /// whether enough has arrived to play on; whether sound may be written now.
    private func followStall(of item: AVPlayerItem, output: PulseAudioOutput) -> Bool {
        let stalled = condition.withLock { stalledValue }
        guard let feed, let (seconds, ended) = feed.buffered else {
            if stalled { setStalled(false, item: item) }
            return true
        }
        if let segment = segments.last(where: { $0.item === item }) {
            // At hand: what the stream has not played yet, and what is read ahead.
            let unplayed = Double(max(0, framesWritten - output.playedFrames)) / Double(SoundFeed.sampleRate) * segment.rate
            let end = clampedNow() + CMTime(seconds: unplayed + seconds * segment.rate, preferredTimescale: 1000)
            let range = CMTimeRange(start: segment.start, end: ended && item.endTime.isNumeric ? item.endTime : min(end, item.endTime))
            item.lock.withLock { item.loadedRange = range }
        }
        if stalled {
            guard ended || seconds >= Self.resumeSeconds else { return false }
            setStalled(false, item: item)
            return true
        }
        // The stream has played all it was given, or has stopped moving (a sound server keeps
        // the last bit of an underrun stream back until more comes).
        let played = output.playedFrames
        let now = DispatchTime.now().uptimeNanoseconds
        if played != playedWatch.frames { playedWatch = (played, now) }
        let still = now - playedWatch.since > Self.stillNanoseconds
        // Before any of its sound was written the item waits for its first data: not a stall.
        let begun = segments.last(where: { $0.item === item }).map { framesWritten > $0.frame } ?? false
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
        let began = condition.withLock { () -> Bool in
            defer { stalledValue = value }
            return value && !stalledValue
        }
        item.lock.withLock { item.isStalled = value }
        if began { item.accessRecord.recordStall() }
        noteWatching()
    }

    /// Tells the playing item's access log whether it plays now (running and not stalled), at
    /// item time `time` (the clock's when nil); its first time opens the log, which is
    /// announced.
    private func noteWatching(at time: CMTime? = nil) {
        guard let item = playingItem else { return }
        let watching = item.status == .readyToPlay && condition.withLock { runningValue && !stalledValue }
        if item.accessRecord.setWatching(watching, at: time ?? clampedNow(), indicatedBitrate: item.indicatedBitrate) {
            NotificationCenter.default.post(name: AVPlayerItem.newAccessLogEntryNotification, object: item)
        }
    }

    /// Moves the clock to what the stream plays; an item whose sound has begun playing becomes
    /// the current one.
    private func followSound(of output: PulseAudioOutput, rate: Double) {
        guard !segments.isEmpty else { return }
        // Never past what was written: a stream that ran dry waits for more.
        let played = min(output.playedFrames, framesWritten)
        guard let segment = segments.last(where: { $0.frame <= played }) else { return }
        if segment.item !== playingItem, let previous = playingItem {
            // The next item's sound is playing: the previous one reached its end.
            endedItem = previous
            postEnd(of: previous)
            segments.removeAll { $0.item === previous }
            previous.stopOutputs()
            condition.withLock {
                if queue.first === previous { queue.removeFirst() }
                previous.player = nil
            }
            // The previous item stands at its end (its access log's last stretch ends there).
            let end = previous.endTime.isNumeric ? previous.endTime : clock.now
            previous.lock.withLock { previous.restingTime = end }
            playingItem = segment.item
            noteWatching(at: segment.start)
            endedItem = nil
            lastObserved = segment.start
        }
        // Played out: everything written was heard, or the stream stopped short of it with
        // nothing more to write (a server may keep the last fragment's position for itself).
        let feedDone = feed?.isFinished ?? true
        soundPlayedOut = feedDone && (played >= framesWritten || played == lastPlayed)
        lastPlayed = played
        let heard = segment.rate == 1 ? played - segment.frame : Int64((Double(played - segment.frame) * segment.rate).rounded())
        let time = segment.start + CMTime(value: heard, timescale: CMTimeScale(SoundFeed.sampleRate))
        if !soundPlayedOut { clock.set(time, rate: rate) }
    }

    /// The item played to its end: told, then what `actionAtItemEnd` says.
    private func reachedEnd(of item: AVPlayerItem) {
        endedItem = item
        let end = item.endTime.isNumeric ? item.endTime : clock.now
        clock.set(end, rate: 0)
        fireObservers()
        postEnd(of: item)
        let action = actionAtItemEnd
        switch action {
        case .advance:
            condition.withLock {
                if queue.first === item { queue.removeFirst() }
                item.player = nil
            }
            item.lock.withLock { item.restingTime = end }
        case .pause:
            condition.withLock { requestedRate = 0 }
            running = false
            item.lock.withLock { item.restingTime = end }
        case .none:
            running = false
        }
    }

    private func postEnd(of item: AVPlayerItem) {
        NotificationCenter.default.post(name: AVPlayerItem.didPlayToEndTimeNotification, object: item)
    }

    /// The item's media went bad while playing: told with the error, and stopped there.
    private func failToEnd(_ item: AVPlayerItem, _ error: Error) {
        let stoppedAt = clampedNow()
        item.lock.withLock { item.restingTime = stoppedAt }
        item.fail(error)
        endedItem = item
        clock.set(stoppedAt, rate: 0)
        closeSound()
        if actionAtItemEnd == .advance {
            condition.withLock {
                if queue.first === item { queue.removeFirst() }
                item.player = nil
            }
        } else {
            condition.withLock { requestedRate = 0 }
        }
        running = false
        // Told once the player is in its new state (paused, or on to the next item).
        NotificationCenter.default.post(name: AVPlayerItem.failedToPlayToEndTimeNotification, object: item,
                                        userInfo: [AVPlayerItemFailedToPlayToEndTimeErrorKey: error])
    }

    /// Performs a seek on the current item; its completion is told once the first picture is
    /// decoded.
    private func perform(_ seek: Seek) {
        guard let item = playingItem, item.status == .readyToPlay else {
            if let completion = seek.completion { DispatchQueue.global().async { completion(false) } }
            return
        }
        let duration = item.asset.duration
        var target = max(.zero, seek.time.isNumeric ? seek.time : .zero)
        if duration.isNumeric { target = min(target, duration) }
        if seek.toleranceBefore > .zero, let key = keyFrame(atOrBefore: target, in: item),
           !seek.toleranceBefore.isNumeric || key >= target - seek.toleranceBefore {
            target = key
        }
        let wasRunning = running
        endedItem = nil
        openMedia(of: item, from: target, keepingStream: false)
        _ = item.videoQueue?.waitForFirstFrame(until: Date().addingTimeInterval(5))
        if wasRunning { running = false }
        NotificationCenter.default.post(name: AVPlayerItem.timeJumpedNotification, object: item)
        firePeriodicObservers(at: target)
        if let completion = seek.completion { DispatchQueue.global().async { completion(true) } }
    }

    /// The time of the key frame at or before `time` in the item's video (nil without video).
    /// Found by reading the video's packets from there, through the asset's spare demuxer: for
    /// a file on the network that would be another fetch, so there it is not looked for (nil:
    /// the seek is exact, which the tolerance allows).
    private func keyFrame(atOrBefore time: CMTime, in item: AVPlayerItem) -> CMTime? {
        guard (try? item.asset.loader.contentsBlocking().get())?.url.map(NetworkOptions.isNetworkURL) != true,
              let track = item.asset.tracks(withMediaType: .video).first, let reader = try? AVAssetReader(asset: item.asset, readsLiveStreams: true) else { return nil }
        reader.timeRange = CMTimeRange(start: time, end: .positiveInfinity)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        guard reader.startReading() else { return nil }
        defer { reader.cancelReading() }
        while let sample = output.copyNextSampleBuffer() {
            let presentation = CMSampleBufferGetPresentationTimeStamp(sample)
            if sample.isSyncSample(at: 0), presentation.isNumeric { return min(presentation, time) }
        }
        return nil
    }

    /// The clock's time, within the current item.
    private func clampedNow() -> CMTime {
        let now = clock.now
        guard let item = playingItem, item.status == .readyToPlay else { return max(.zero, now) }
        return max(.zero, min(now, item.endTime))
    }

    // MARK: Observers

    private func fireObservers() {
        let now = clampedNow()
        defer { lastObserved = now }
        guard now > lastObserved else { return }
        let due = condition.withLock { observers.values.compactMap { observer -> (TimeObserver, CMTime)? in
            switch observer.kind {
            case .periodic(let interval):
                guard interval > .zero else { return nil }
                let before = CMTimeGetSeconds(lastObserved) / CMTimeGetSeconds(interval)
                let after = CMTimeGetSeconds(now) / CMTimeGetSeconds(interval)
                return before.rounded(.down) != after.rounded(.down) ? (observer, now) : nil
            case .boundary(let times):
                return times.contains { $0 > lastObserved && $0 <= now } ? (observer, now) : nil
            }
        } }
        for (observer, time) in due { observer.queue.async { observer.block(time) } }
    }

    /// Tells the periodic observers the time (after a jump, a start or a stop).
    private func firePeriodicObservers(at time: CMTime) {
        let periodic = condition.withLock { observers.values.filter { if case .periodic = $0.kind { return true } else { return false } } }
        for observer in periodic { observer.queue.async { observer.block(time) } }
        lastObserved = time
    }
}
