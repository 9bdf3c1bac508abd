import Foundation
import CaptureDevices
import HostSystem
import Logging
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// One file being recorded by an `AVCaptureFileOutput`, through the one writer core
/// (`MovieWriter`): the capture devices' threads hand it samples, a serial queue of its own
/// encodes and writes them, and it finishes the file and tells the delegate.
///
/// Timing: the recording starts at its first video frame (its first audio buffer when it has no
/// video): that host time becomes zero in the file, and audio buffers that begin earlier are
/// left out (the audio track then starts up to one buffer late, which the file's edit list
/// keeps in sync). Asked to stop, it ends at its next video frame, exclusive: a recording
/// started on the same output meanwhile begins with that very frame, so none is lost between
/// the two files, and audio buffers go to the file whose range holds their start. A pause
/// takes effect at the next video frame and leaves no gap in the file.
///
/// Back pressure: samples wait for the writer in two `BoundedQueue`s that drop the newest when
/// full, so memory stays flat when the encoder cannot keep up: at most `videoQueueCapacity`
/// frames (a frame dropped there is counted like a camera's drop) and `audioQueueCapacity`
/// audio buffers (two seconds of 10 ms buffers: audio is cheap to encode, so only a writer
/// stalled that long, on a disk that stopped answering, loses any; each loss is logged).
///
/// Entry points: the file starts, and a pause ends, at a video frame that has what the file
/// takes (a picture to encode; a camera that sends H.264 gives none until it decodes again). A
/// camera's compressed frames stored as they are (`Plan.storesCompressedVideo`: nothing
/// encoded) also need their references: the entry points are key frames, and after a frame is
/// missing (dropped here or by the camera) frames are left out up to the next one. A recording
/// handing over to the next one on its output ends at the next entry point (which the next
/// begins with), one just asked to stop at the next frame. No wait for an entry point lasts more
/// than `entryPointWait` of media (a camera without key frames, a decoder that gives nothing):
/// the next frame then serves.
final class CaptureRecording: @unchecked Sendable {
    /// What the file output asks of a recording.
    struct Plan {
        /// The video encoder's settings; nil for a file without video or one that stores the
        /// camera's compressed frames.
        var video: EncoderSettings?
        /// Whether the video track stores the camera's compressed frames as they are.
        var storesCompressedVideo = false
        /// The video track's display transform: the connection's orientation and mirroring,
        /// applied by players rather than to the pixels (nil: none).
        var videoTransform: CGAffineTransform?
        /// The audio encoder's settings; nil for a file without audio.
        var audio: EncoderSettings?
        /// The file's container: FFmpeg's muxer name.
        var fileType = "mov"
        /// Fragments and metadata of the file.
        var options: Muxer.Options
        /// `maxRecordedDuration` (invalid: none).
        var maxDuration: CMTime
        /// `maxRecordedFileSize` (0: none).
        var maxFileSize: Int64
        /// `minFreeDiskSpaceLimit` (0: none).
        var minFreeDiskSpace: Int64
    }

    /// How many frames may wait for the encoder before newer ones are dropped.
    static let videoQueueCapacity = 8
    /// How many audio buffers may wait for the writer before newer ones are dropped.
    static let audioQueueCapacity = 200
    /// Free space kept to finish the file, whatever `minFreeDiskSpaceLimit` says: what the
    /// trailer writes, 64 KiB plus 16 bytes for each sample written (a movie header's sample
    /// tables take about that much per sample).
    static func finishingReserve(samples: Int) -> Int64 { 64 * 1024 + 16 * Int64(samples) }
    /// How long, in media time, a recording waits for an entry point before it takes any frame.
    static let entryPointWait = CMTime(value: 2, timescale: 1)
    /// How long a recording that has seen its last video frame waits for the audio up to it.
    static let audioGrace = DispatchTimeInterval.milliseconds(500)

    /// The file.
    let url: URL
    /// The connections recorded, as the delegate is told.
    let connections: [AVCaptureConnection]
    private let delegate: any AVCaptureFileOutputRecordingDelegate
    private let output: AVCaptureFileOutput
    private let plan: Plan
    private let writer: MovieWriter
    private let videoTrack: Int?
    private let audioTrack: Int?
    private let queue = DispatchQueue(label: "OpenAVFoundation.CaptureRecording", qos: .utility)
    private let logger = Logger(label: "OpenAVFoundation.CaptureRecording")

    private let lock = NSLock()
    // Guarded by `lock`.
    /// Where the file starts, pauses and ends, and what is missing from it.
    private var timeline: RecordingTimeline
    /// Samples waiting for the writer, and whether a drain on `queue` is writing them.
    private var videoQueue = BoundedQueue<(sample: CaptureSample, fileTime: CMTime)>(capacity: videoQueueCapacity, policy: .dropNewest)
    private var audioQueue = BoundedQueue<(buffer: CMSampleBuffer, fileTime: CMTime, duration: CMTime)>(
        capacity: audioQueueCapacity, policy: .dropNewest)
    private var draining = false
    private var finishing = false
    private var discardQueued = false
    private var reason: AVError?
    private var writtenEnd = CMTime.zero
    private var writerFailed = false
    private var writtenFrames = 0
    private var writtenSamples = 0
    private var lastSpaceCheck = CMTime.negativeInfinity

    /// Creates the file and the encoders; throws (without touching an existing file) when the
    /// file exists or cannot be made, or the settings are refused.
    init(url: URL, plan: Plan, connections: [AVCaptureConnection], output: AVCaptureFileOutput,
         delegate: any AVCaptureFileOutputRecordingDelegate) throws(AVError) {
        var plans: [MovieWriter.TrackPlan] = []
        var videoTrack: Int?
        var audioTrack: Int?
        if plan.video != nil || plan.storesCompressedVideo {
            // Without settings the track stores samples as they are; the first one describes it.
            videoTrack = plans.count
            plans.append(MovieWriter.TrackPlan(settings: plan.video, formatHint: nil,
                                               options: MuxerTrackOptions(transform: plan.videoTransform)))
        }
        if let audio = plan.audio {
            audioTrack = plans.count
            plans.append(MovieWriter.TrackPlan(settings: audio, formatHint: nil, options: MuxerTrackOptions()))
        }
        guard !plans.isEmpty else {
            throw AVError(.noDataCaptured, reason: "the output has no active video or audio connection to record")
        }
        writer = try Self.atEncodingPriority { () throws(AVError) in
            try MovieWriter(url: url, fileType: plan.fileType, options: plan.options, plans: plans)
        }
        writer.startSession(at: .zero)
        self.url = url
        self.plan = plan
        self.connections = connections
        self.output = output
        self.delegate = delegate
        self.videoTrack = videoTrack
        self.audioTrack = audioTrack
        timeline = RecordingTimeline(hasVideo: videoTrack != nil, hasAudio: audioTrack != nil,
                                     storesCompressedVideo: plan.storesCompressedVideo, maxDuration: plan.maxDuration,
                                     entryPointWait: Self.entryPointWait)
    }

    // MARK: State for the output

    /// The file time recorded so far (pauses excluded).
    var recordedDuration: CMTime { lock.withLock { writtenEnd } }
    /// The file's size so far.
    var recordedFileSize: Int64 { writer.estimatedFileSize }
    /// Whether the recording needs the pictures of a camera's compressed frames (it encodes video).
    var needsPictures: Bool { videoTrack != nil && !plan.storesCompressedVideo }
    /// Whether a pause is in effect or asked for.
    var isPaused: Bool { lock.withLock { timeline.isPaused } }
    /// Frames missing between the file's first and last frames: dropped by the device, or
    /// because the encoder fell behind.
    var droppedFrameCount: Int { lock.withLock { timeline.droppedFrames } }
    /// Frames written to the file.
    var writtenFrameCount: Int { lock.withLock { writtenFrames } }

    /// Ends the recording at its next video frame (next audio buffer without video), or, when
    /// `handingOver` to a recording that begins there, at its next entry point.
    func stopAtNextFrame(handingOver: Bool) {
        lock.withLock { timeline.stopAtNextFrame(handingOver: handingOver) }
    }

    /// Pauses at the next video frame.
    func pause() {
        lock.withLock { timeline.pause() }
    }

    /// Resumes at the next video frame.
    func resume() {
        lock.withLock { timeline.resume() }
    }

    // MARK: Samples (device threads)

    /// Takes a sample from a device thread: the timeline decides, in time order, whether it
    /// belongs to the file, and it goes to the writer's queue.
    func receive(_ sample: CaptureSample) {
        let isVideo = sample.isVideo
        guard isVideo ? videoTrack != nil : audioTrack != nil else { return }
        let storesCompressed = isVideo && plan.storesCompressedVideo
        let hasMedia = !isVideo || (storesCompressed ? sample.compressedVideo != nil : sample.pixelBuffer != nil)
        let isEntryPoint = hasMedia && (!storesCompressed || sample.compressedVideo?.isSyncSample(at: 0) == true)
        lock.lock()
        guard !finishing else { return lock.unlock() }
        let outcome = timeline.decide(RecordingTimeline.Sample(isVideo: isVideo, time: sample.presentationTime, hasMedia: hasMedia,
                                                               isEntryPoint: isEntryPoint, droppedBefore: sample.droppedBefore))
        if outcome.forcedEntryPoint {
            logger.warning("no entry point in \(Self.entryPointWait.seconds) s of video: recording \(url.lastPathComponent) goes on from a frame that may not decode")
        }
        switch outcome.pauseChange {
        case .paused?: queue.async { self.delegate.fileOutput(self.output, didPauseRecordingTo: self.url, from: self.connections) }
        case .resumed?: queue.async { self.delegate.fileOutput(self.output, didResumeRecordingTo: self.url, from: self.connections) }
        case nil: break
        }
        switch outcome.decision {
        case .leaveOut:
            return lock.unlock()
        case .passedEnd(let state):
            lock.unlock()
            switch state {
            case .complete: finish(because: nil)
            case .awaitingAudio: queue.asyncAfter(deadline: .now() + Self.audioGrace) { self.finish(because: nil) }
            case .awaitingVideo: break
            }
            return
        case .reachedMaximumDuration:
            lock.unlock()
            return finish(because: AVError(.maximumDurationReached, reason: "the recording reached its maximum duration of \(plan.maxDuration.seconds) s"))
        case .write(let fileTime):
            if isVideo {
                guard case .queued = videoQueue.push((sample, fileTime)) else {
                    timeline.refused()
                    return lock.unlock()
                }
                timeline.queued()
            } else {
                guard let buffer = sample.sampleBuffer else { return lock.unlock() }
                guard case .queued = audioQueue.push((buffer, fileTime, sample.duration)) else {
                    let lost = audioQueue.dropped(.overrun)
                    lock.unlock()
                    // Said for the first loss and every hundredth (a second of buffers) after it.
                    guard lost % 100 == 1 else { return }
                    return logger.warning("recording \(url.lastPathComponent): the writer is \(Self.audioQueueCapacity) audio buffers behind; \(lost) lost so far, the last at \(fileTime.seconds) s")
                }
            }
        }
        let startsDrain = !draining
        draining = true
        lock.unlock()
        if startsDrain { queue.async { self.drain() } }
    }

    /// Writes the waiting samples, frames and audio buffers in turn, until none is left (on
    /// `queue`).
    private func drain() {
        while true {
            let (video, audio) = lock.withLock { () -> ((sample: CaptureSample, fileTime: CMTime)?, (buffer: CMSampleBuffer, fileTime: CMTime, duration: CMTime)?) in
                let next = (videoQueue.pop(), audioQueue.pop())
                if next.0 == nil && next.1 == nil { draining = false }
                return next
            }
            guard video != nil || audio != nil else { return }
            if let video { writeVideo(video.sample, at: video.fileTime) }
            if let audio { writeAudio(audio.buffer, at: audio.fileTime, duration: audio.duration) }
        }
    }

    /// Waits until every sample handed over so far is written (or left out): for tests that
    /// hand samples over faster than a device delivers them, which the bounded queue would drop.
    func waitUntilWritten() {
        queue.sync {}
    }

    // MARK: Writing (own queue)

    /// Writes a video frame at `time` in the file: its picture to the encoder, or the camera's
    /// compressed frame as it is.
    private func writeVideo(_ sample: CaptureSample, at time: CMTime) {
        guard let track = videoTrack, shouldWrite() else { return }
        do {
            if plan.storesCompressedVideo {
                guard let frame = sample.compressedVideo.flatMap({ Self.retimed($0, at: time, sampleDuration: sample.duration) })
                else { return }
                try writer.append(frame, track: track)
            } else if let pixels = sample.pixelBuffer {
                // Its own duration: after a drop, the interval to the frame before is longer.
                try writer.append(pixels, at: time, duration: sample.duration, track: track)
            }
            lock.withLock { writtenFrames += 1 }
            wrote(until: time + sample.duration)
        } catch {
            writeFailed(error)
        }
    }

    private func writeAudio(_ buffer: CMSampleBuffer, at time: CMTime, duration: CMTime) {
        guard let track = audioTrack, shouldWrite(),
              let retimed = Self.retimed(buffer, at: time, sampleDuration: CMTime(value: 1, timescale: time.timescale))
        else { return }
        do {
            try writer.append(retimed, track: track)
            wrote(until: time + duration)
        } catch {
            writeFailed(error)
        }
    }

    /// A copy of a sample buffer (sharing its data) whose first sample is at `time` in the file,
    /// each sample lasting `sampleDuration`.
    private static func retimed(_ buffer: CMSampleBuffer, at time: CMTime, sampleDuration: CMTime) -> CMSampleBuffer? {
        buffer.retimed([CMSampleTimingInfo(duration: sampleDuration, presentationTimeStamp: time, decodeTimeStamp: .invalid)])
    }

    /// How many nice steps below the process encoding runs (`ThreadPriority`): below the capture
    /// devices' threads and the clients' delegate queues, so that a frame reaches its delegate without waiting for an encoder
    /// thread's time slice; the bounded queue absorbs the encoder's later start.
    static let encodingNice: Int32 = 5

    /// Runs `body` (which opens the encoders) on a short-lived thread at `encodingNice`: the
    /// encoders' own threads (x264's frame and lookahead threads) start there and inherit it.
    /// The caller's thread keeps its priority (a nice value, once raised, may not come down).
    private static func atEncodingPriority<Value>(_ body: @escaping () throws(AVError) -> Value) throws(AVError) -> Value {
        nonisolated(unsafe) var result: Result<Value, AVError>?
        nonisolated(unsafe) let body = body  // run once, on the thread below, while the caller waits
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            ThreadPriority.lowerCallingThread(by: encodingNice)
            do throws(AVError) { result = .success(try body()) } catch { result = .failure(error) }
            done.signal()
        }
        thread.name = "OpenAVFoundation.CaptureRecording.open"
        thread.start()
        done.wait()
        return try result!.get()
    }

    /// Whether queued samples are still written (not after a failure or a size limit).
    private func shouldWrite() -> Bool { lock.withLock { !discardQueued } }

    /// After a write: the start callback, the duration, and the size and disk-space limits.
    private func wrote(until fileTime: CMTime) {
        let (first, checkSpace, samples, startTime) = lock.withLock { () -> (Bool, Bool, Int, CMTime) in
            let first = writtenSamples == 0
            writtenSamples += 1
            if fileTime > writtenEnd { writtenEnd = fileTime }
            // Free space is asked of the file system every quarter second of media.
            let check = fileTime - lastSpaceCheck >= CMTime(value: 1, timescale: 4)
            if check { lastSpaceCheck = fileTime }
            return (first, check, writtenSamples, timeline.startTime ?? .invalid)
        }
        if first { delegate.fileOutput(output, didStartRecordingTo: url, startPTS: startTime, from: connections) }
        let size = writer.estimatedFileSize
        if plan.maxFileSize > 0, size >= plan.maxFileSize {
            finish(because: AVError(.maximumFileSizeReached, reason: "the recording reached its maximum file size of \(plan.maxFileSize) bytes"),
                   discardingQueued: true)
        } else if checkSpace, let free = freeSpace(),
                  free - writer.unwrittenBytes < max(plan.minFreeDiskSpace, Self.finishingReserve(samples: samples)) {
            finish(because: AVError(.diskFull, reason: "the disk holding \(url.path) has \(free) bytes free, below what recording needs"),
                   discardingQueued: true)
        }
    }

    /// The bytes free for this user on the file system holding the file.
    private func freeSpace() -> Int64? {
        var info = statvfs()
        guard statvfs(url.deletingLastPathComponent().path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    private func writeFailed(_ error: AVError) {
        logger.error("recording to \(url.path) failed: \(error.localizedDescription)")
        lock.withLock { writerFailed = true }
        finish(because: error, discardingQueued: true)
    }

    // MARK: Finishing

    /// Stops taking samples and finishes the file once what is queued is written (or, for a
    /// failure or a size limit, dropped); `reason` is what the delegate hears (nil when asked
    /// to stop). Only the first call counts.
    func finish(because reason: AVError?, discardingQueued discard: Bool = false) {
        let first = lock.withLock { () -> Bool in
            guard !finishing else { return false }
            finishing = true
            discardQueued = discard
            self.reason = reason
            return true
        }
        guard first else { return }
        queue.async { self.finalize() }
    }

    /// Writes the trailer and tells the delegate (on the queue, after the queued samples).
    private func finalize() {
        let (reason, failed, wroteSample) = lock.withLock { (self.reason, writerFailed, writtenSamples > 0) }
        delegate.fileOutput(output, willFinishRecordingTo: url, from: connections, error: reason)
        var error = reason
        var finished = false
        if failed {
            // The file stays as the failure left it: a fragmented movie plays up to its last fragment.
        } else if !wroteSample {
            writer.cancel()
            error = error ?? AVError(.noDataCaptured, reason: "no sample reached \(url.path) before the recording stopped")
        } else {
            do {
                try writer.finish()
                finished = true
            } catch let finishError {
                // Left as it is: what reached the disk may still be played.
                error = error ?? finishError
            }
        }
        let reported = error.map { error -> AVError in
            var info = error.userInfo
            info[AVErrorRecordingSuccessfullyFinishedKey] = finished
            return AVError(error.code, userInfo: info)
        }
        output.recordingDidFinish(self)
        delegate.fileOutput(output, didFinishRecordingTo: url, from: connections, error: reported)
    }
}
