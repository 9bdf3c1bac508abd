import Dispatch
import Foundation
import HostSystem
import OpenCoreMedia

/// Gives the subtitles of a playing item (the cues of its selected legible option, see
/// `AVPlayerItem.select(_:in:)`) to a delegate as attributed strings, as their times come.
///
/// After each seek, and when the item starts, the delegate is told the sequence was flushed,
/// then gets the cues from that time on: each cue's string at its start (less
/// `advanceIntervalForDelegateInvocation`), and no strings at its end when no cue follows at
/// once, so that the text shown is cleared. Subtitles are 3GPP timed text here (see
/// `AVAssetReaderTrackOutput`), so the strings carry what its styles say.
open class AVPlayerItemLegibleOutput: AVPlayerItemOutput, @unchecked Sendable {
    /// How much of the styling the strings carry: Apple's names. Only what the cues state is
    /// given here (there are no user caption preferences on Linux), so both give the same.
    public struct TextStylingResolution: RawRepresentable, Hashable, Sendable {
        /// The styling of the source and of the player item's text style rules and the user's
        /// preferences.
        public static let `default` = TextStylingResolution(rawValue: "AVPlayerItemLegibleOutputTextStylingResolutionDefault")
        /// The styling of the source and of the player item's text style rules only.
        public static let sourceAndRulesOnly =
            TextStylingResolution(rawValue: "AVPlayerItemLegibleOutputTextStylingResolutionSourceAndRulesOnly")
        /// The resolution's string, as Apple's.
        public let rawValue: String
        /// A resolution from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// How many cues wait before the ring of `pending` first grows.
    private static let pendingAtFirst = 8
    private let nativeSubtypes: Set<FourCharCode>

    /// The delegate, its queue, and the cues waiting for it, behind one lock.
    private struct State {
        weak var delegate: AVPlayerItemLegibleOutputPushDelegate?
        var queue: DispatchQueue?
        var advance: TimeInterval = 0
        var styling = TextStylingResolution.default
        /// The cues the player took for this output and not yet given, in order: bounded by time
        /// (the player takes them once due for the output with the largest advance), so the queue
        /// grows as needed and never makes the player wait.
        var pending = BoundedQueue<CMSampleBuffer>(capacity: pendingAtFirst, policy: .grow)
        /// When the text of the last cue given ends, unless a cue follows at once.
        var clearAt: CMTime?
    }

    private let state = Locked(State())

    /// Creates an output giving every cue as an attributed string.
    public override init() {
        nativeSubtypes = []
        super.init()
    }

    /// Creates an output giving the samples of `subtypes` (media subtypes, such as
    /// `kCMTextFormatType_3GText`, as numbers) as they are, in `nativeSampleBuffers`, and the
    /// others as attributed strings.
    public init(mediaSubtypesForNativeRepresentation subtypes: [NSNumber]) {
        nativeSubtypes = Set(subtypes.map { FourCharCode(truncatingIfNeeded: $0.int64Value) })
        super.init()
    }

    /// The delegate the cues are given to.
    open var delegate: AVPlayerItemLegibleOutputPushDelegate? { state.delegate }

    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { state.queue }

    /// Sets the delegate and the queue it is called on (the main queue when nil).
    open func setDelegate(_ delegate: AVPlayerItemLegibleOutputPushDelegate?, queue delegateQueue: DispatchQueue?) {
        state.withLock { s in
            s.delegate = delegate
            s.queue = delegateQueue
        }
    }

    /// How many seconds before its time a cue is given to the delegate (0 by default).
    open var advanceIntervalForDelegateInvocation: TimeInterval {
        get { state.advance }
        set { state.advance = max(0, newValue) }
    }

    /// How much of the styling the strings carry (`.default`).
    open var textStylingResolution: TextStylingResolution {
        get { state.styling }
        set { state.styling = newValue }
    }

    /// Forgets the cues not yet given (the item starts, or seeks): the delegate is told the
    /// sequence was flushed.
    func flush() {
        stop()
        tellDelegate { $0.outputSequenceWasFlushed(self) }
    }

    /// Forgets the cues not yet given (the item stopped playing, or the output was removed).
    func stop() {
        state.withLock { s in
            _ = s.pending.removeAll()
            s.clearAt = nil
        }
    }

    /// Takes `cues` (in order) to give when their time comes.
    func receive(_ cues: [CMSampleBuffer]) {
        state.withLock { s in for cue in cues { _ = s.pending.push(cue) } }
    }

    /// Gives the delegate the cues (and the ends of their text) due by item time `time`, less
    /// the advance interval, one call each, in time order.
    func deliver(through time: CMTime) {
        var due: [(time: CMTime, cue: CMSampleBuffer?)] = []
        state.withLock { s in
            let limit = time + CMTime(seconds: s.advance, preferredTimescale: 1_000_000)
            while true {
                let next = s.pending.first?.presentationTimeStamp
                if let clear = s.clearAt, clear <= limit, next.map({ clear < $0 }) ?? true {
                    due.append((clear, nil))
                    s.clearAt = nil
                } else if let cue = s.pending.first, cue.presentationTimeStamp <= limit {
                    _ = s.pending.pop()
                    due.append((cue.presentationTimeStamp, cue))
                    let end = cue.presentationTimeStamp + cue.duration
                    s.clearAt = cue.duration.isNumeric && cue.duration > .zero && cue.totalSampleSize > 2 ? end : nil
                } else {
                    break
                }
            }
        }
        for (time, cue) in due {
            var strings: [NSAttributedString] = []
            var native: [Any] = []
            if let cue {
                if let subtype = cue.formatDescription.map(CMFormatDescriptionGetMediaSubType), nativeSubtypes.contains(subtype) {
                    native = [cue]
                } else if let string = TimedTextCue.attributedString(of: cue), string.length > 0 {
                    strings = [string]
                }
            }
            nonisolated(unsafe) let sentStrings = strings, sentNative = native
            tellDelegate { $0.legibleOutput(self, didOutputAttributedStrings: sentStrings, nativeSampleBuffers: sentNative, forItemTime: time) }
        }
    }

    /// Calls the delegate on its queue (the main queue when none was given).
    private func tellDelegate(_ call: @escaping (AVPlayerItemLegibleOutputPushDelegate) -> Void) {
        let (delegate, delegateQueue) = state.withLock { ($0.delegate, $0.queue) }
        tell(delegate, on: delegateQueue, call)
    }
}
