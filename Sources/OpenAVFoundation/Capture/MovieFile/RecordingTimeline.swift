import OpenCoreMedia

/// A recording's per-sample decisions, as a value: where the file starts and ends, pauses,
/// entry points, the maximum duration, and which missing frames count as dropped. Given each
/// sample in time order (`decide(_:)`), it says what to do with it; the recording does it (hands
/// the sample to the writer, finishes the file, tells the delegate), as `PCMTimeline` does for
/// a microphone's buffers. The rules are `CaptureRecording`'s (timing, entry points).
struct RecordingTimeline {
    /// What the timeline needs to know of a sample.
    struct Sample {
        /// Whether it is a video frame (else an audio buffer).
        var isVideo: Bool
        /// Its presentation time on the host clock.
        var time: CMTime
        /// Whether it has what the file takes: a picture to encode, or the camera's compressed
        /// frame when those are stored; always true for audio.
        var hasMedia: Bool
        /// Whether a file may start (or a pause end) here: a frame with media, and a key frame
        /// when compressed frames are stored.
        var isEntryPoint: Bool
        /// Frames the device lost just before this one.
        var droppedBefore: Int
    }

    /// What to do with a sample.
    enum Decision: Equatable {
        /// It is not part of the file (before the start, paused, waiting for an entry point).
        case leaveOut
        /// Hand it to the writer at this file time; for a frame, then call `queued()` or
        /// `refused()`.
        case write(fileTime: CMTime)
        /// The file reached its maximum duration: finish it.
        case reachedMaximumDuration
        /// The sample is at or past the end.
        case passedEnd(EndState)
    }

    /// How far past its end a recording is.
    enum EndState: Equatable {
        /// Video and audio have passed the end: finish now.
        case complete
        /// Video has passed the end; audio up to it may still come (finish after a grace period).
        case awaitingAudio
        /// Audio has passed the end, video not yet.
        case awaitingVideo
    }

    /// A pause or resume that took effect at a sample.
    enum PauseChange: Equatable {
        case paused
        case resumed
    }

    /// The outcome of `decide(_:)`.
    struct Outcome: Equatable {
        /// What to do with the sample.
        var decision = Decision.leaveOut
        /// A pause or resume that took effect at it, for the delegate.
        var pauseChange: PauseChange?
        /// Whether it serves as an entry point only because none came for `entryPointWait`.
        var forcedEntryPoint = false
    }

    /// Where the recording ends.
    private enum End {
        /// Not asked to stop.
        case open
        /// Ends at the next video frame (the next audio buffer when there is no video).
        case atNextFrame
        /// Ends at the next entry point, where the next recording begins.
        case atNextEntryPoint
        /// Ends at this host time, exclusive.
        case at(CMTime)
    }

    private let hasVideo: Bool
    private let hasAudio: Bool
    private let storesCompressedVideo: Bool
    private let maxDuration: CMTime
    private let entryPointWait: CMTime

    private var start: CMTime?
    private var end = End.open
    private var videoPassedEnd = false
    private var audioPassedEnd = false
    private var pausedTotal = CMTime.zero
    private var pauseStart: CMTime?
    private var pauseRequested = false
    private var resumeRequested = false
    /// Frames dropped since the last frame written: counted once a later frame is written
    /// (frames after the file's last are not missing from it).
    private var pendingDrops = 0
    /// Whether stored compressed frames wait for a key frame after one went missing.
    private var awaitsKeyFrame = false
    /// When the recording began waiting for an entry point, while it waits.
    private var entryPointWaitStart: CMTime?
    /// Frames missing between the file's first and last frames.
    private(set) var droppedFrames = 0

    /// A timeline for a file with or without video and audio; `maxDuration` invalid for none.
    init(hasVideo: Bool, hasAudio: Bool, storesCompressedVideo: Bool, maxDuration: CMTime, entryPointWait: CMTime) {
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        self.storesCompressedVideo = storesCompressedVideo
        self.maxDuration = maxDuration
        self.entryPointWait = entryPointWait
    }

    /// The host time of the file's first sample, once it has one.
    var startTime: CMTime? { start }

    /// Whether a pause is in effect or asked for.
    var isPaused: Bool { (pauseStart != nil || pauseRequested) && !resumeRequested }

    /// Ends the file at the next video frame (next audio buffer without video), or, when
    /// `handingOver` to a recording that begins there, at the next entry point.
    mutating func stopAtNextFrame(handingOver: Bool) {
        if case .open = end { end = handingOver ? .atNextEntryPoint : .atNextFrame }
    }

    /// Pauses at the next video frame.
    mutating func pause() {
        resumeRequested = false
        if pauseStart == nil { pauseRequested = true }
    }

    /// Resumes at the next entry point.
    mutating func resume() {
        pauseRequested = false
        if pauseStart != nil { resumeRequested = true }
    }

    /// Decides what becomes of a sample; samples come in time order per track.
    mutating func decide(_ sample: Sample) -> Outcome {
        var outcome = Outcome()
        let time = sample.time
        // Video leads: it starts, pauses and ends the file (audio does when there is no video).
        let leads = sample.isVideo || !hasVideo
        var isEntryPoint = sample.isEntryPoint
        if leads {
            (isEntryPoint, outcome.forcedEntryPoint) = entryPoint(isEntryPoint, hasMedia: sample.hasMedia, at: time)
            switch end {
            case .open, .at: break
            case .atNextFrame: end = .at(time)
            case .atNextEntryPoint: if isEntryPoint { end = .at(time) }
            }
        }
        if case .at(let endTime) = end, time >= endTime {
            if sample.isVideo || !hasVideo { videoPassedEnd = true }
            if !sample.isVideo { audioPassedEnd = true }
            let complete = videoPassedEnd && (!(hasAudio && hasVideo) || audioPassedEnd)
            outcome.decision = .passedEnd(complete ? .complete : videoPassedEnd ? .awaitingAudio : .awaitingVideo)
            return outcome
        }
        if start == nil {
            guard leads, isEntryPoint else { return outcome }
            start = time
        } else if leads {
            // Frames lost while paused are not missing from the file.
            if pauseStart == nil { pendingDrops += sample.droppedBefore }
            if sample.isVideo && storesCompressedVideo && sample.droppedBefore > 0 { awaitsKeyFrame = true }
        }
        guard let start, time >= start else { return outcome }
        if leads { outcome.pauseChange = updatePause(at: time, isEntryPoint: isEntryPoint) }
        guard pauseStart == nil else { return outcome }
        let fileTime = time - start - pausedTotal
        if leads, maxDuration.isNumeric, fileTime >= maxDuration {
            outcome.decision = .reachedMaximumDuration
            return outcome
        }
        if sample.isVideo {
            if isEntryPoint { awaitsKeyFrame = false }
            guard sample.hasMedia, !awaitsKeyFrame else {
                refused()
                return outcome
            }
        }
        outcome.decision = .write(fileTime: fileTime)
        return outcome
    }

    /// The frame `decide(_:)` said to write was taken by the writer: the frames missing since
    /// the last one written count as dropped.
    mutating func queued() {
        droppedFrames += pendingDrops
        pendingDrops = 0
    }

    /// A frame was not written (no media, no room in the writer's queue, waiting for a key
    /// frame): it is missing, and stored compressed frames wait for the next key frame.
    mutating func refused() {
        pendingDrops += 1
        if storesCompressedVideo { awaitsKeyFrame = true }
    }

    /// Whether a leading sample serves as an entry point: one that is, or any with media once
    /// the recording has waited `entryPointWait` for one (then also whether it was forced so).
    private mutating func entryPoint(_ isEntryPoint: Bool, hasMedia: Bool, at time: CMTime) -> (Bool, Bool) {
        var waits = start == nil || resumeRequested || awaitsKeyFrame
        if case .atNextEntryPoint = end { waits = true }
        guard waits, !isEntryPoint else {
            entryPointWaitStart = nil
            return (isEntryPoint, false)
        }
        guard let since = entryPointWaitStart else {
            entryPointWaitStart = time
            return (false, false)
        }
        guard hasMedia, time - since >= entryPointWait else { return (false, false) }
        entryPointWaitStart = nil
        return (true, true)
    }

    /// Applies a pause or resume asked for, at a leading sample's time; a resume waits for an
    /// entry point.
    private mutating func updatePause(at time: CMTime, isEntryPoint: Bool) -> PauseChange? {
        if pauseRequested, pauseStart == nil {
            pauseRequested = false
            pauseStart = time
            return .paused
        }
        if resumeRequested, isEntryPoint, let paused = pauseStart {
            resumeRequested = false
            pausedTotal = pausedTotal + (time - paused)
            pauseStart = nil
            return .resumed
        }
        return nil
    }
}
