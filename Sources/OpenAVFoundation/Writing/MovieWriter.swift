import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// The one writer behind `AVAssetWriter` (and, through it, the capture movie file output and
/// the export session): encoders and the muxer, the session's time offset and the tracks whose
/// format is known only from their first sample. Thread-safe: inputs append from any queue.
final class MovieWriter: @unchecked Sendable {
    /// What one track writes.
    struct TrackPlan {
        /// Encode with these settings, or nil to store compressed samples as they are.
        var settings: EncoderSettings?
        /// The format of passthrough samples when known in advance (`sourceFormatHint`).
        var formatHint: CMFormatDescription?
        /// Time scale, language, transform and tags of the track.
        var options: MuxerTrackOptions
        /// Whether the track's text samples are the file's chapters (a text input another
        /// names as its chapter list): they become the muxer's chapters, not a track of their own.
        var isChapterList = false
    }

    /// Something appended to a track: a sample buffer, or a picture from the pixel buffer
    /// adaptor, which goes to the encoder as it is.
    private enum Media {
        case sample(CMSampleBuffer)
        /// A picture, its presentation time and its duration (invalid: until the next one).
        case picture(CVPixelBuffer, CMTime, CMTime)

        var presentationTime: CMTime {
            switch self {
            case .sample(let sample): sample.presentationTimeStamp
            case .picture(_, let time, _): time
            }
        }

        var duration: CMTime {
            switch self {
            case .sample(let sample): sample.duration
            case .picture(_, _, let duration): duration
            }
        }
    }

    private struct Track {
        var plan: TrackPlan
        var encoder: Encoder?
        var muxerIndex: Int?
        var pending: [Media] = []
        var finished = false
        /// A chapter list's chapters so far: each title and where it starts (in source time),
        /// and how long it lasts when its sample says.
        var chapters: [(title: String, start: CMTime, duration: CMTime)]?
        /// The segment interval of the last picture encoded, for a writer of segments.
        var segmentInterval: Int64?

        /// Whether the track waits for its first sample to be added to the muxer.
        var waitsForFormat: Bool { muxerIndex == nil && chapters == nil && !finished }
    }

    private let lock = NSLock()
    private let muxer: Muxer
    private var tracks: [Track]
    private var started = false
    private var sessionStart: CMTime = .invalid
    private var sessionEnd: CMTime = .invalid
    /// Where the media appended so far ends (source time): the last chapter's end when its
    /// sample does not say.
    private var mediaEnd: CMTime = .zero

    /// Opens the file and makes the encoders; throws for a file that exists or cannot be made,
    /// and for settings no encoder accepts.
    convenience init(url: URL, fileType: String, options: Muxer.Options, plans: [TrackPlan]) throws(AVError) {
        let opened: Muxer
        do throws(EngineError) {
            opened = try Muxer(url: url, fileType: fileType, options: options)
        } catch {
            throw AVError(error, fallback: .unsupportedOutputSettings)
        }
        try self.init(muxer: opened, fileType: fileType, plans: plans)
    }

    /// Writes through `opened` (a file's muxer, or one writing segments in memory) and makes
    /// the encoders; throws for settings no encoder accepts.
    init(muxer opened: Muxer, fileType: String, plans: [TrackPlan]) throws(AVError) {
        do throws(EngineError) {
            let globalHeader = Muxer.needsGlobalHeader(fileType: fileType)
            var made: [Track] = []
            for plan in plans {
                var track = Track(plan: plan)
                if plan.isChapterList {
                    track.chapters = []
                } else if let settings = plan.settings {
                    let encoder = try Encoder(settings: settings, globalHeader: globalHeader)
                    track.encoder = encoder
                    track.muxerIndex = try opened.addTrack(from: encoder, options: plan.options)
                } else if let hint = plan.formatHint {
                    track.muxerIndex = try opened.addTrack(passthrough: hint, timeScale: plan.options.timeScale ?? 600,
                                                           options: plan.options)
                }
                made.append(track)
            }
            muxer = opened
            tracks = made
        } catch {
            // Nothing was written: the file this writer created goes.
            opened.cancel()
            throw AVError(error, fallback: .unsupportedOutputSettings)
        }
    }

    /// The file's size so far, counting samples FFmpeg still holds for an unfinished fragment.
    var estimatedFileSize: Int64 { lock.withLock { muxer.estimatedSize } }

    /// Bytes FFmpeg holds that the file does not have yet (what finishing still writes,
    /// besides the trailer).
    var unwrittenBytes: Int64 { lock.withLock { muxer.unwrittenBytes } }

    /// Sets the time that becomes zero in the file.
    func startSession(at time: CMTime) {
        lock.withLock { sessionStart = time }
    }

    /// Moves the origin of the segment intervals to `origin` (in source time) once the session
    /// starts at `sessionStart`: the muxer counts in the file's times.
    func setSegmentOrigin(_ origin: CMTime, sessionStart: CMTime) {
        lock.withLock { muxer.setSegmentOrigin(origin - sessionStart) }
    }

    /// Ends the segment under way and hands it on (a writer of segments).
    func flushSegment() throws(AVError) {
        lock.lock()
        defer { lock.unlock() }
        do throws(EngineError) {
            try muxer.flushSegment()
        } catch {
            throw AVError(error, fallback: .encodeFailed)
        }
    }

    /// Sets the time after which samples are dropped.
    func endSession(at time: CMTime) {
        lock.withLock { sessionEnd = time }
    }

    /// Appends a sample buffer of track `index`: an image buffer or PCM to encode, or a
    /// compressed sample to store.
    func append(_ sample: CMSampleBuffer, track index: Int) throws(AVError) {
        try append(.sample(sample), track: index)
    }

    /// Appends a picture shown at `time` (source time) for `duration` (invalid: until the next
    /// picture; the last one then lasts as long as the one before) to track `index`; it goes to
    /// the encoder without being wrapped in a sample buffer.
    func append(_ pixelBuffer: CVPixelBuffer, at time: CMTime, duration: CMTime = .invalid, track index: Int) throws(AVError) {
        try append(.picture(pixelBuffer, time, duration), track: index)
    }

    private func append(_ media: Media, track index: Int) throws(AVError) {
        lock.lock()
        defer { lock.unlock() }
        guard !tracks[index].finished else { return }
        if tracks[index].chapters != nil {
            try collectChapter(media, track: index)
            return
        }
        if tracks[index].muxerIndex == nil {
            // A passthrough track without a hint: its first sample describes it.
            tracks[index].pending.append(media)
            try addWaitingTracksIfReady()
            return
        }
        if !started && tracks.contains(where: \.waitsForFormat) {
            tracks[index].pending.append(media)
            return
        }
        try write(media, track: index)
    }

    /// Adds the passthrough tracks that waited for their first sample once all have one, then
    /// writes what waited.
    private func addWaitingTracksIfReady() throws(AVError) {
        guard tracks.allSatisfy({ !$0.waitsForFormat || !$0.pending.isEmpty }) else { return }
        do throws(EngineError) {
            for index in tracks.indices where tracks[index].muxerIndex == nil && !tracks[index].pending.isEmpty {
                guard case .sample(let first) = tracks[index].pending[0], let format = first.formatDescription else {
                    throw EngineError(operation: "adding a track", message: "the first sample has no format description")
                }
                tracks[index].muxerIndex = try muxer.addTrack(passthrough: format, timeScale: tracks[index].plan.options.timeScale ?? 600,
                                                              options: tracks[index].plan.options)
            }
        } catch {
            throw AVError(error, fallback: .unsupportedOutputSettings)
        }
        for index in tracks.indices {
            let waiting = tracks[index].pending
            tracks[index].pending = []
            for media in waiting { try write(media, track: index) }
        }
    }

    /// Writes one sample or picture (lock held).
    private func write(_ media: Media, track index: Int) throws(AVError) {
        var media = media
        var trimmed = false
        if sessionEnd.isNumeric, case .sample(let sample) = media, tracks[index].encoder == nil,
           CMSampleBufferGetNumSamples(sample) == 1 {
            // A stored sample: what lies past the session's end is edited out, not dropped.
            guard let kept = try trimmedToSessionEnd(sample) else { return }
            media = .sample(kept)
            trimmed = true
        }
        let time = media.presentationTime
        if !trimmed, sessionEnd.isNumeric, time.isNumeric, time >= sessionEnd { return }
        if time.isNumeric { mediaEnd = max(mediaEnd, time + (media.duration.isNumeric ? media.duration : .zero)) }
        let offset = sessionStart.isNumeric ? sessionStart : .zero
        do throws(EngineError) {
            if !started {
                try muxer.start()
                started = true
            }
            guard let muxerIndex = tracks[index].muxerIndex else { return }
            switch (media, tracks[index].encoder) {
            case (.picture(let pixels, _, let duration), let encoder?):
                try encoder.encode(pixels, presentationTime: time - offset, duration: duration,
                                   keyFrame: startsSegmentInterval(at: time - offset, track: index))
            case (.sample(let sample), let encoder?):
                if let pixels = sample.imageBuffer {
                    try encoder.encode(pixels, presentationTime: time - offset, duration: sample.duration,
                                       keyFrame: startsSegmentInterval(at: time - offset, track: index))
                } else {
                    try encoder.encode(pcm: try shifted(sample, by: offset))
                }
            case (.sample(let sample), nil):
                try muxer.write(sampleBuffer: sample, track: muxerIndex, timeOffset: offset)
            case (.picture, nil):
                throw EngineError(operation: "writing a picture", message: "an input with nil output settings stores compressed samples, not pictures")
            }
            for packet in tracks[index].encoder?.receivePackets() ?? [] { try muxer.write(packet, track: muxerIndex) }
        } catch {
            throw AVError(error, fallback: error.code == -ENOSPC ? .diskFull : .encodeFailed)
        }
    }

    /// Whether a picture of track `index` shown at `time` (in the times written) is the first in a
    /// new segment interval: it is then made a key frame, so that the segment is cut where it is
    /// due, not at the next key frame the encoder chose (which, after a scene cut, may come a
    /// whole key frame interval later).
    private func startsSegmentInterval(at time: CMTime, track index: Int) -> Bool {
        guard let interval = muxer.segmentInterval(at: time) else { return false }
        defer { tracks[index].segmentInterval = interval }
        return tracks[index].segmentInterval.map { interval > $0 } ?? false
    }

    /// A stored (compressed) sample cut at the session's end, which the file's edit list then
    /// ends at exactly: a sample shown after the end but decoded before it stays as a reference
    /// for the frames before it, shown at the end for no time; one that straddles the end is
    /// shortened; nil for one decoded after the end. `sample` holds one sample.
    private func trimmedToSessionEnd(_ sample: CMSampleBuffer) throws(AVError) -> CMSampleBuffer? {
        var timing = CMSampleTimingInfo()
        guard CMSampleBufferGetSampleTimingInfo(sample, at: 0, timingInfoOut: &timing) == noErr,
              timing.presentationTimeStamp.isNumeric else { return sample }
        let decodeTime = timing.decodeTimeStamp.isNumeric ? timing.decodeTimeStamp : timing.presentationTimeStamp
        if decodeTime >= sessionEnd { return nil }
        if timing.presentationTimeStamp >= sessionEnd {
            timing.presentationTimeStamp = sessionEnd
            timing.duration = .zero
        } else if timing.duration.isNumeric, timing.presentationTimeStamp + timing.duration > sessionEnd {
            timing.duration = sessionEnd - timing.presentationTimeStamp
        } else {
            return sample
        }
        guard let copy = sample.retimed([timing]) else {
            throw AVError(.encodeFailed, reason: "cannot retime a sample at the session's end")
        }
        return copy
    }

    /// The sample with its times moved so that the session start becomes zero.
    private func shifted(_ sample: CMSampleBuffer, by offset: CMTime) throws(EngineError) -> CMSampleBuffer {
        guard offset != .zero else { return sample }
        let count = CMSampleBufferGetNumSamples(sample)
        var entries = 0
        CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 0, arrayToFill: nil, entriesNeededOut: &entries)
        var timing = [CMSampleTimingInfo](repeating: CMSampleTimingInfo(), count: max(entries, 1))
        CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: timing.count, arrayToFill: &timing, entriesNeededOut: &entries)
        for i in timing.indices {
            if timing[i].presentationTimeStamp.isNumeric { timing[i].presentationTimeStamp = timing[i].presentationTimeStamp - offset }
            if timing[i].decodeTimeStamp.isNumeric { timing[i].decodeTimeStamp = timing[i].decodeTimeStamp - offset }
        }
        guard let copy = sample.retimed(count > 0 ? timing : []) else {
            throw EngineError(operation: "retiming a sample", message: "the sample buffer cannot be copied")
        }
        return copy
    }

    /// Keeps a chapter list's sample as a chapter (lock held): its text is the title.
    private func collectChapter(_ media: Media, track index: Int) throws(AVError) {
        guard case .sample(let sample) = media, let data = sample.dataBuffer, sample.presentationTimeStamp.isNumeric,
              let bytes = try? data.dataBytes(), let title = TimedText.text(ofSample: bytes) else {
            throw AVError(.encodeFailed, reason: "a chapter list's samples must be timed text samples (a 16-bit length, then the title)")
        }
        tracks[index].chapters?.append((title, sample.presentationTimeStamp, sample.duration))
    }

    /// The chapters collected, in the file's time: each lasts until the next, the last as long
    /// as its sample says, else to the end of the media.
    private func fileChapters() -> [(title: String, range: CMTimeRange)] {
        let offset = sessionStart.isNumeric ? sessionStart : .zero
        let collected = tracks.compactMap(\.chapters).joined().sorted { $0.start < $1.start }
        return collected.enumerated().map { index, chapter in
            var end = index + 1 < collected.count ? collected[index + 1].start
                : (chapter.duration.isNumeric && chapter.duration > .zero ? chapter.start + chapter.duration : mediaEnd)
            if sessionEnd.isNumeric { end = min(end, sessionEnd) }
            return (chapter.title, CMTimeRange(start: chapter.start - offset, end: max(end, chapter.start) - offset))
        }
    }

    /// Says track `index` gets no more samples: its encoder is drained.
    func finishTrack(_ index: Int) throws(AVError) {
        lock.lock()
        defer { lock.unlock() }
        guard !tracks[index].finished else { return }
        tracks[index].finished = true
        if tracks[index].muxerIndex == nil { try addWaitingTracksIfReady() }
        try drain(index)
    }

    /// Drains a track's encoder into the file (lock held).
    private func drain(_ index: Int) throws(AVError) {
        guard let encoder = tracks[index].encoder, let muxerIndex = tracks[index].muxerIndex else { return }
        do throws(EngineError) {
            try encoder.finish()
            if !started {
                try muxer.start()
                started = true
            }
            for packet in encoder.receivePackets() { try muxer.write(packet, track: muxerIndex) }
        } catch {
            throw AVError(error, fallback: error.code == -ENOSPC ? .diskFull : .encodeFailed)
        }
    }

    /// Finishes every track and writes the file's trailer (and, with fast start, moves the
    /// header to the front).
    func finish() throws(AVError) {
        for index in lock.withLock({ Array(tracks.indices) }) { try finishTrack(index) }
        lock.lock()
        defer { lock.unlock() }
        do throws(EngineError) {
            if !started {
                try muxer.start()
                started = true
            }
            let chapters = fileChapters()
            if !chapters.isEmpty { try muxer.setChapters(chapters) }
            try muxer.finish()
        } catch {
            throw AVError(error, fallback: error.code == -ENOSPC ? .diskFull : .encodeFailed)
        }
    }

    /// Stops writing and removes the partial file.
    func cancel() {
        lock.withLock { muxer.cancel() }
    }
}
