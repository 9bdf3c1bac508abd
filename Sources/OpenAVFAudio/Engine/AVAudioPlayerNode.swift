import Foundation
import HostSystem

/// Plays scheduled buffers and file segments, one after another or at the player times given,
/// into its output bus (44.1 kHz stereo until connected in another format).
///
/// Two timelines: the node's (the frames its output bus rendered since the engine started, as
/// `lastRenderTime` counts them) and the player's, which starts at 0 when `play()` takes effect
/// and stands still while paused; `nodeTime(forPlayerTime:)` and `playerTime(forNodeTime:)`
/// convert. A schedule's `when` is a player time; `play(at:)`'s is a node time, met to the
/// sample. Buffers must have the output's channel count and are played at the output's rate;
/// files are converted to the output's format as they are read, ahead of the render thread.
open class AVAudioPlayerNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    /// One scheduled buffer or segment.
    private struct Item {
        enum Source {
            case buffer(AVAudioPCMBuffer)
            case file(FileSegmentReader)
        }

        let source: Source
        /// Where it starts on the player's timeline (nil: after what comes before).
        let start: Int64?
        let loops: Bool
        let completion: Completion?
        /// Frames of a buffer already played (in the current loop).
        var position = 0
    }

    /// A completion handler and when to call it.
    private struct Completion {
        let type: AVAudioPlayerNodeCompletionCallbackType
        let handler: AVAudioPlayerNodeCompletionHandler
    }

    /// What the player does, shared by callers and the render thread.
    private struct Schedule {
        var items: [Item] = []
        /// Items waiting for the looping item playing to reach its end (`.interruptsAtLoop`).
        var afterLoop: [Item]?
        var isPlaying = false
        /// The node time play should start at (nil: the next cycle's start).
        var requestedStart: Int64?
        /// Node time `node` is player time `player` (set when playing takes effect).
        var anchor: (node: Int64, player: Int64)?
        /// The player time of the next frame rendered while playing.
        var playerTime: Int64 = 0
        /// Completions due, collected by the render thread and called after its cycle.
        var due: [Completion] = []
    }

    private let schedule = Locked(Schedule())
    /// The last render cycle's first frame on the node's timeline and the host clock, for
    /// converting host times.
    private let clock = Locked((node: Int64(0), host: UInt64(0), rate: 44_100.0))

    /// A player with nothing scheduled.
    public init() {
        super.init(inputs: 0, outputs: 1)
    }

    /// Whether the player is playing (from `play()` until `pause()` or `stop()`), whether or
    /// not anything is scheduled.
    open var isPlaying: Bool { schedule.withLock { $0.isPlaying } }

    // MARK: Scheduling buffers

    /// Schedules `buffer` to play after what is scheduled; `completionHandler` is called when
    /// the player has taken it.
    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleBuffer(buffer, at: nil, options: [], completionHandler: completionHandler)
    }

    /// Schedules `buffer` at player time `when` (nil: after what is scheduled), looping or
    /// interrupting as `options` say.
    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
                             completionHandler: AVAudioNodeCompletionHandler? = nil) {
        add(.buffer(checked(buffer)), at: when, options: options,
            completion: completionHandler.map { handler in Completion(type: .dataConsumed) { _ in handler() } })
    }

    /// Schedules `buffer` after what is scheduled; `completionHandler` is called as
    /// `callbackType` says.
    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                             completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        scheduleBuffer(buffer, at: nil, options: [], completionCallbackType: callbackType, completionHandler: completionHandler)
    }

    /// Schedules `buffer` at player time `when` with `options`; `completionHandler` is called as
    /// `callbackType` says.
    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
                             completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                             completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        add(.buffer(checked(buffer)), at: when, options: options,
            completion: completionHandler.map { Completion(type: callbackType, handler: $0) })
    }

    // MARK: Scheduling files

    /// Schedules the whole of `file` at player time `when` (nil: after what is scheduled).
    open func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleSegment(file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when,
                        completionHandler: completionHandler)
    }

    /// Schedules the whole of `file`; `completionHandler` is called as `callbackType` says.
    open func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                           completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        scheduleSegment(file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when,
                        completionCallbackType: callbackType, completionHandler: completionHandler)
    }

    /// Schedules `frameCount` frames of `file` from `startingFrame` at player time `when`.
    open func scheduleSegment(_ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, at when: AVAudioTime?,
                              completionHandler: AVAudioNodeCompletionHandler? = nil) {
        addSegment(file, startingFrame: startingFrame, frameCount: frameCount, at: when,
                   completion: completionHandler.map { handler in Completion(type: .dataConsumed) { _ in handler() } })
    }

    /// Schedules `frameCount` frames of `file` from `startingFrame` at player time `when`;
    /// `completionHandler` is called as `callbackType` says.
    open func scheduleSegment(_ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, at when: AVAudioTime?,
                              completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                              completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        addSegment(file, startingFrame: startingFrame, frameCount: frameCount, at: when,
                   completion: completionHandler.map { Completion(type: callbackType, handler: $0) })
    }

    private func addSegment(_ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, at when: AVAudioTime?,
                            completion: Completion?) {
        guard let reader = try? FileSegmentReader(file: file, startingFrame: startingFrame, frameCount: frameCount, format: outputFormat(forBus: 0)) else {
            // A file that cannot be read again is done at once, as an empty segment.
            if let completion { DispatchQueue.global().async { completion.handler(completion.type) } }
            return
        }
        add(.file(reader), at: when, options: [], completion: completion)
    }

    /// `buffer`, after checking that it has the output's channel count and float samples.
    private func checked(_ buffer: AVAudioPCMBuffer) -> AVAudioPCMBuffer {
        let format = outputFormat(forBus: 0)
        precondition(buffer.format.channelCount == format.channelCount && buffer.floatChannelData != nil,
                     "AVAudioPlayerNode: required condition is false: _outputFormat.channelCount == buffer.format.channelCount "
                     + "(\(buffer.format.channelCount) against \(format.channelCount)), and the buffer holds float samples")
        return buffer
    }

    private func add(_ source: Item.Source, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions, completion: Completion?) {
        let start = when.flatMap(playerSampleTime(of:))
        let item = Item(source: source, start: start, loops: options.contains(.loops), completion: completion)
        let dropped: [Completion] = schedule.withLock { state in
            if options.contains(.interrupts) {
                let dropped = (state.items + (state.afterLoop ?? [])).compactMap(\.completion)
                state.items = [item]
                state.afterLoop = nil
                return dropped
            }
            if options.contains(.interruptsAtLoop), state.items.first?.loops == true {
                state.afterLoop = (state.afterLoop ?? []) + [item]
                return []
            }
            if state.afterLoop != nil { state.afterLoop?.append(item) } else { state.items.append(item) }
            return []
        }
        call(dropped)
    }

    /// The player sample time of `when`: its sample time (at the output's rate), else its host
    /// time on the player's timeline; nil when neither can be placed.
    private func playerSampleTime(of when: AVAudioTime) -> Int64? {
        let rate = outputFormat(forBus: 0).sampleRate
        if when.isSampleTimeValid {
            return when.sampleRate > 0 && when.sampleRate != rate ? Int64((Double(when.sampleTime) * rate / when.sampleRate).rounded()) : when.sampleTime
        }
        guard when.isHostTimeValid, let node = nodeSampleTime(ofHostTime: when.hostTime),
              let anchor = schedule.withLock({ $0.anchor }) else { return nil }
        return node - anchor.node + anchor.player
    }

    /// The node sample time of a host time, from the last render cycle's anchor.
    private func nodeSampleTime(ofHostTime host: UInt64) -> Int64? {
        let anchor = clock.withLock { $0 }
        guard anchor.host > 0 else { return nil }
        return anchor.node + Int64(((Double(host) - Double(anchor.host)) / 1e9 * anchor.rate).rounded())
    }

    // MARK: Playing

    /// Starts (or resumes) playing at the next render cycle. The engine must be running.
    open func play() {
        play(at: nil)
    }

    /// Starts (or resumes) playing at node time `when` (its sample time, or its host time),
    /// to the sample; nil starts at the next render cycle. The engine must be running.
    open func play(at when: AVAudioTime?) {
        precondition(engine?.isRunning == true, "AVAudioPlayerNode.play: required condition is false: _engine->IsRunning() (player started when engine not running)")
        let rate = outputFormat(forBus: 0).sampleRate
        var start: Int64?
        if let when {
            if when.isSampleTimeValid {
                start = when.sampleRate > 0 && when.sampleRate != rate ? Int64((Double(when.sampleTime) * rate / when.sampleRate).rounded()) : when.sampleTime
            } else if when.isHostTimeValid {
                start = nodeSampleTime(ofHostTime: when.hostTime)
            }
        }
        schedule.withLock { state in
            guard !state.isPlaying else { return }
            state.isPlaying = true
            state.requestedStart = start
            state.anchor = nil
        }
    }

    /// Stops playing and keeps the schedule and the player time where they are.
    open func pause() {
        schedule.withLock { state in
            state.isPlaying = false
            state.anchor = nil
        }
    }

    /// Stops playing, lets go of everything scheduled (calling its completion handlers) and
    /// starts the player's timeline over.
    open func stop() {
        let dropped: [Completion] = schedule.withLock { state in
            let dropped = (state.items + (state.afterLoop ?? [])).compactMap(\.completion)
            state = Schedule()
            return dropped
        }
        call(dropped)
    }

    /// Reads ahead so that playing starts without delay; files are always read ahead here.
    open func prepare(withFrameCount frameCount: AVAudioFrameCount) {}

    override func clearRenderingState() {
        stop()
    }

    override func engineDidStop() {
        stop()
    }

    /// The node time of `playerTime`; nil while the player is not playing.
    open func nodeTime(forPlayerTime playerTime: AVAudioTime) -> AVAudioTime? {
        guard playerTime.isSampleTimeValid, let anchor = schedule.withLock({ $0.isPlaying ? $0.anchor : nil }) else { return nil }
        let rate = outputFormat(forBus: 0).sampleRate
        return AVAudioTime(sampleTime: playerTime.sampleTime - anchor.player + anchor.node, atRate: rate)
    }

    /// The player time of `nodeTime`; nil while the player is not playing.
    open func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
        guard nodeTime.isSampleTimeValid, let anchor = schedule.withLock({ $0.isPlaying ? $0.anchor : nil }) else { return nil }
        let rate = outputFormat(forBus: 0).sampleRate
        return AVAudioTime(sampleTime: nodeTime.sampleTime - anchor.node + anchor.player, atRate: rate)
    }

    /// Calls `completions` off the caller's thread: `.dataPlayedBack` ones after the output's
    /// latency.
    private func call(_ completions: [Completion], latency: TimeInterval = 0) {
        for completion in completions {
            let delay = completion.type == .dataPlayedBack ? latency : 0
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { completion.handler(completion.type) }
        }
    }

    // MARK: Rendering

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        target.silence(frames)
        let nodeTime = renderedFrames
        let rate = currentOutputFormat(0).sampleRate
        clock.withLock { $0 = (nodeTime, cycle.hostTime, rate) }
        let due: [Completion] = schedule.withLock { state in
            guard state.isPlaying else { return [] }
            var offset = 0
            if state.anchor == nil {
                let start = max(nodeTime, state.requestedStart ?? nodeTime)
                state.anchor = (start, state.playerTime)
            }
            if let anchor = state.anchor, anchor.node > nodeTime {
                offset = Int(min(Int64(frames), anchor.node - nodeTime))
            }
            var time = state.playerTime
            var written = offset
            while written < frames, !state.items.isEmpty {
                if let start = state.items[0].start, start > time {
                    let gap = Int(min(Int64(frames - written), start - time))
                    written += gap
                    time += Int64(gap)
                    continue
                }
                let (count, finished) = Self.play(&state.items[0], into: target, at: written, frames: frames - written, wait: cycle.isOffline)
                written += count
                time += Int64(count)
                if finished {
                    if state.items[0].loops, state.afterLoop == nil {
                        state.items[0].position = 0
                    } else {
                        let done = state.items.removeFirst()
                        if let completion = done.completion { state.due.append(completion) }
                        if let next = state.afterLoop {
                            state.items = next + state.items
                            state.afterLoop = nil
                        }
                    }
                } else if count == 0 {
                    break  // a file not read far enough yet: silence for the rest of the cycle
                }
            }
            state.playerTime += Int64(frames - offset)
            defer { state.due.removeAll() }
            return state.due
        }
        if !due.isEmpty { call(due, latency: cycle.isOffline ? 0 : outputPresentationLatency) }
    }

    /// Plays up to `frames` frames of `item` into `target` from `offset`; how many, and whether
    /// the item reached its end.
    private static func play(_ item: inout Item, into target: RenderBus, at offset: Int, frames: Int, wait: Bool) -> (Int, Bool) {
        switch item.source {
        case .buffer(let buffer):
            let length = Int(buffer.frameLength)
            let count = min(frames, length - item.position)
            if count > 0, let planes = buffer.floatChannelData {
                let stride = buffer.stride
                for channel in 0..<min(target.channelCount, Int(buffer.format.channelCount)) {
                    let from = planes[channel], to = target.planes[channel] + offset
                    if stride == 1 {
                        to.update(from: from + item.position, count: count)
                    } else {
                        for frame in 0..<count { to[frame] = from[(item.position + frame) * stride] }
                    }
                }
            }
            item.position += max(0, count)
            return (max(0, count), item.position >= length)
        case .file(let reader):
            return reader.copy(into: target, at: offset, frames: frames, wait: wait)
        }
    }
}
