import Display
import Foundation
import Logging
import OpenCoreMedia

/// A player's sound output: one stream to the sound server for a whole queue (items play back
/// to back in it), the item sound fed to it, and which item time each stretch of the stream
/// holds, so that what the stream plays (the master clock) says where playback stands. Used by
/// the player's thread only.
final class SoundStream {
    /// A stretch of the stream: from frame `frame` on, `item`'s sound from item time `start`,
    /// played at `rate`.
    struct Segment {
        let frame: Int64
        let item: AVPlayerItem
        let start: CMTime
        let rate: Double
    }

    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")
    /// The longest a sound server gets to answer.
    static let timeout: UInt64 = 2_000_000_000

    private let server: String?
    private var output: PulseAudioOutput?
    /// Whether no sound can be played (no server, or it went away): playback runs on the host clock.
    private(set) var isUnavailable = false
    /// The stretches written, oldest first.
    private(set) var segments: [Segment] = []
    /// How many frames were written to the stream.
    private(set) var framesWritten: Int64 = 0
    /// The stream's position at the last look, and whether it has played all there is.
    private var lastPlayed: Int64 = -1
    private var playedOut = false
    /// Whether the stream was told to play out its last, short buffer.
    private var triggered = false
    /// The sound being written, and whose it is.
    private(set) var feed: SoundFeed?
    private(set) var feedItem: AVPlayerItem?

    /// A stream to `server` (nil: libpulse's default), opened when first needed.
    init(server: String?) {
        self.server = server
    }

    /// Whether a stream is open.
    var isOpen: Bool { output != nil }

    /// Opens the stream to `sink` (nil: the server's default) when there is none; the sink's
    /// name as the server knows it, nil when no sound can be played (logged once).
    func open(sink: String?) -> String? {
        if let output { return output.sinkName }
        guard !isUnavailable else { return nil }
        do {
            let opened = try PulseAudioOutput(server: server, sink: sink, sampleRate: SoundFeed.sampleRate,
                                              channelCount: SoundFeed.channelCount, timeout: Self.timeout)
            output = opened
            return opened.sinkName
        } catch {
            Self.logger.warning("no sound: \(error); playing on the host clock")
            isUnavailable = true
            return nil
        }
    }

    /// Closes the stream (what it holds is not heard) and forgets what was fed.
    func close() {
        output = nil
        forgetFeed()
        framesWritten = 0
        lastPlayed = -1
    }

    /// The server went away: the stream is closed, and no other is opened.
    func lose() {
        close()
        isUnavailable = true
    }

    /// Forgets the sound fed and the stretches, keeping the stream and what it holds (a new
    /// item after the end of the previous one's sound, which plays out first).
    func forgetFeed() {
        feed = nil
        feedItem = nil
        segments = []
        playedOut = false
        triggered = false
    }

    /// Stops writing the current feed (the stream keeps what it holds).
    func stopFeeding() {
        feed = nil
    }

    /// Writes `sound`, `item`'s sound from item time `start` at `rate`, after what the stream
    /// holds.
    func feed(_ sound: SoundFeed, of item: AVPlayerItem, from start: CMTime, rate: Double) {
        feed = sound
        feedItem = item
        addSegment(at: framesWritten, item: item, start: start, rate: rate)
        triggered = false
        playedOut = false
    }

    /// Goes on at a new rate with the same feed: what is written plays out (at most the
    /// stream's buffer), then what the old stretching holds, then the sound stretched anew.
    /// Nothing changes when the feed already plays at `rate` (or there is no feed).
    func changeRate(to rate: Double) {
        guard let feed, let item = feedItem, let change = feed.changeRate(to: rate) else { return }
        addSegment(at: framesWritten + Int64(change.framesBefore), item: item, start: change.itemTime, rate: rate)
    }

    /// Notes a stretch; one that would begin at the same frame (nothing of it written) is replaced.
    private func addSegment(at frame: Int64, item: AVPlayerItem, start: CMTime, rate: Double) {
        if let last = segments.last, last.frame >= frame { segments.removeLast() }
        segments.append(Segment(frame: frame, item: item, start: start, rate: rate))
    }

    /// The item time where what was written of the feed ends (nil without a feed).
    var writtenEnd: CMTime? {
        guard feed != nil, let segment = segments.last else { return nil }
        let written = Double(framesWritten - segment.frame) * segment.rate
        return segment.start + CMTime(value: Int64(written.rounded()), timescale: CMTimeScale(SoundFeed.sampleRate))
    }

    /// Writes as much of the feed as the stream takes, scaled by `gain`; whether the feed has
    /// handed out all it has (its end, or a failure).
    func write(gain: Float) -> Bool {
        guard let output else { return false }
        while let feed, !feed.isFinished {
            let writable = output.writableFrames
            guard writable > 0 else { return false }
            let written = feed.take(writable, gain: gain) { output.write($0, frames: $1) }
            framesWritten += Int64(written)
            if written == 0 && !feed.isFinished { return false }
        }
        return feed?.isFinished ?? false
    }

    /// Tells the stream to play what it holds even when it is less than it waits for before
    /// starting (the end of the sound); once for each feed.
    func playOut() {
        guard let output, !triggered else { return }
        triggered = true
        output.trigger(timeout: Self.timeout)
    }

    /// Pauses (true) or resumes what is heard.
    func setCorked(_ value: Bool) {
        output?.setCorked(value, timeout: Self.timeout)
    }

    /// Handles what the server sent, waiting at most `timeout` nanoseconds; the server's error
    /// text when the connection failed (the stream is then lost), else nil.
    func iterate(timeout: UInt64) -> String? {
        guard let output, !output.iterate(timeout: timeout) else { return nil }
        let reason = output.errorText
        lose()
        return reason
    }

    /// The frames heard so far (0 without a stream).
    var playedFrames: Int64 { output?.playedFrames ?? 0 }

    /// Where playback stands in the stream: the stretch being heard and the item time heard now
    /// (never past what was written: a stream that ran dry waits for more); nil before anything
    /// written is heard. Notes whether everything written has been played out.
    func follow() -> (segment: Segment, time: CMTime)? {
        guard let output, !segments.isEmpty else { return nil }
        let played = min(output.playedFrames, framesWritten)
        guard let segment = segments.last(where: { $0.frame <= played }) else { return nil }
        // Played out: everything written was heard, or the stream stopped short of it with
        // nothing more to write (a server may keep the last fragment's position for itself).
        let feedDone = feed?.isFinished ?? true
        playedOut = feedDone && (played >= framesWritten || played == lastPlayed)
        lastPlayed = played
        let heard = segment.rate == 1 ? played - segment.frame : Int64((Double(played - segment.frame) * segment.rate).rounded())
        return (segment, segment.start + CMTime(value: heard, timescale: CMTimeScale(SoundFeed.sampleRate)))
    }

    /// Whether everything written for the current item has been heard (true without sound).
    var isPlayedOut: Bool {
        guard output != nil, feed != nil || !segments.isEmpty else { return true }
        return playedOut
    }

    /// Forgets the stretches of `item` (it has been heard to its end).
    func removeSegments(of item: AVPlayerItem) {
        segments.removeAll { $0.item === item }
    }
}
