import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// The work of one export: the asset's reader feeding the one writer, track by track, until
/// every track is written, the time range or file length limit is reached, reading or
/// writing fails, or the job is cancelled. `AVAssetExportSession` runs it with a preset's
/// settings; `openav convert` with settings of its own.
///
/// Every way it ends is final and leaves nothing half-done: a completed file, or no file
/// (a failed or cancelled job removes what it wrote). It runs on the calling thread and never
/// waits on another one, so it cannot hang when a stage fails.
package final class ExportJob: @unchecked Sendable {
    /// One track of the source and how it is exported.
    package struct Track {
        /// The source track.
        package let track: AVAssetTrack
        /// The writer input's settings: nil stores the samples as they come (passthrough).
        package let writerSettings: [String: Any]?

        /// A track exported with `writerSettings` (nil: passthrough).
        package init(track: AVAssetTrack, writerSettings: [String: Any]?) {
            self.track = track
            self.writerSettings = writerSettings
        }

        /// What the reader hands the writer, made from the writer's settings: the samples as
        /// stored for passthrough; 4:2:0 planar pictures at the encoded size (the layout x264,
        /// x265 and the ProRes encoder take without another conversion, scaled once by the
        /// reader); 32-bit float PCM at the encoded rate and channel count.
        var readerSettings: [String: Any]? {
            guard let writerSettings else { return nil }
            if track.mediaType == .video {
                var settings: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8Planar]
                settings[kCVPixelBufferWidthKey as String] = writerSettings[AVVideoWidthKey]
                settings[kCVPixelBufferHeightKey as String] = writerSettings[AVVideoHeightKey]
                return settings
            }
            var settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true]
            settings[AVSampleRateKey] = writerSettings[AVSampleRateKey]
            settings[AVNumberOfChannelsKey] = writerSettings[AVNumberOfChannelsKey]
            return settings
        }
    }

    /// What the output file looks like beyond its tracks.
    package struct Options {
        /// The part of the source exported; beyond the asset's duration it is cut to it.
        package var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
        /// The file's metadata.
        package var metadata: [AVMetadataItem] = []
        /// Whether the movie header goes first.
        package var shouldOptimizeForNetworkUse = false
        /// When valid and positive, a fragmented movie with fragments this long.
        package var movieFragmentInterval: CMTime = .invalid
        /// When positive, the file stays at or under this many bytes: the export ends early.
        package var fileLengthLimit: Int64 = 0
        /// How the video tracks are composed into the one video track written (which is then
        /// upright: its transform is the identity); nil writes the first video track.
        package var videoComposition: AVVideoComposition?
        /// How the audio tracks are mixed into the one audio track written; nil writes the
        /// first audio track.
        package var audioMix: AVAudioMix?

        /// Options with nothing set.
        package init() {}
    }

    private let asset: AVAsset
    private let outputURL: URL
    private let fileType: AVFileType
    private let tracks: [Track]
    private let options: Options

    private let lock = NSLock()
    private var cancelled = false

    /// A job writing `tracks` of `asset` to a new file at `outputURL`.
    package init(asset: AVAsset, outputURL: URL, fileType: AVFileType, tracks: [Track], options: Options) {
        self.asset = asset
        self.outputURL = outputURL
        self.fileType = fileType
        self.tracks = tracks
        self.options = options
    }

    /// Stops a running job (or one about to run) as soon as it next looks: `run` then throws
    /// `AVError.operationCancelled` and the partial file is removed.
    package func cancel() {
        lock.withLock { cancelled = true }
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    /// The range exported: the options' range cut to the asset, which lasts until
    /// `assetDuration` and begins at `origin` (see `AVAsset.timelineOrigin`).
    package static func effectiveRange(_ range: CMTimeRange, assetDuration: CMTime, origin: CMTime = .zero) -> CMTimeRange {
        let start = range.start.isNumeric && range.start > origin ? range.start : origin
        var end = range.isValid && range.end.isNumeric ? range.end : assetDuration
        if assetDuration.isNumeric, !end.isNumeric || end > assetDuration { end = assetDuration }
        guard end.isNumeric, end > start else { return CMTimeRange(start: start, duration: .zero) }
        return CMTimeRange(start: start, end: end)
    }

    /// Runs the export to its end on the calling thread, calling `progress` with each new
    /// fraction done (0 to 1, never going back). Throws the reader's or writer's `AVError`,
    /// `AVError.fileAlreadyExists` (the existing file is untouched) or
    /// `AVError.operationCancelled`.
    package func run(progress: (Float) -> Void) throws(AVError) {
        guard !tracks.isEmpty else { throw AVError(.noSourceTrack, reason: "there is no track to export") }
        let range = Self.effectiveRange(options.timeRange, assetDuration: asset.duration, origin: asset.timelineOrigin)
        let reader: AVAssetReader
        let writer: AVAssetWriter
        do {
            reader = try AVAssetReader(asset: asset)
            writer = try AVAssetWriter(outputURL: outputURL, fileType: fileType)
        } catch {
            throw error as? AVError ?? AVError(.exportFailed, reason: "\(error)")
        }
        reader.timeRange = range
        writer.metadata = options.metadata
        writer.shouldOptimizeForNetworkUse = options.shouldOptimizeForNetworkUse
        writer.movieFragmentInterval = options.movieFragmentInterval

        var lanes: [Lane] = []
        for plan in tracks {
            let output = makeOutput(for: plan)
            output.alwaysCopiesSampleData = false
            let hint = plan.writerSettings == nil ? plan.track.contents.formatDescription : nil
            let input = AVAssetWriterInput(mediaType: plan.track.mediaType, outputSettings: plan.writerSettings, sourceFormatHint: hint)
            input.transform = output is AVAssetReaderVideoCompositionOutput ? .identity : plan.track.preferredTransform
            input.languageCode = plan.track.languageCode
            if plan.writerSettings == nil { input.mediaTimeScale = plan.track.naturalTimeScale }
            guard reader.canAdd(output) else {
                throw AVError(.operationNotSupportedForAsset, reason: "the \(plan.track.mediaType.rawValue) track \(plan.track.trackID) cannot be read that way")
            }
            guard writer.canAdd(input) else {
                throw AVError(.operationNotSupportedForPreset, reason: "a \(fileType.rawValue) file cannot hold the \(plan.track.mediaType.rawValue) track \(plan.track.trackID) that way")
            }
            reader.add(output)
            writer.add(input)
            lanes.append(Lane(output: output, input: input))
        }
        guard reader.startReading() else {
            throw reader.error as? AVError ?? AVError(.exportFailed, reason: "the source cannot be read")
        }
        guard writer.startWriting() else {
            reader.cancelReading()
            writer.removeUnfinishedFile()
            throw writer.error as? AVError ?? AVError(.exportFailed, reason: "the file cannot be written")
        }
        writer.startSession(atSourceTime: range.start)
        if range.duration > .zero { writer.endSession(atSourceTime: range.end) }
        do throws(AVError) {
            let appended = try copy(lanes, reader: reader, writer: writer, range: range, progress: progress)
            // A video track that gave no frames, when it holds none at all or should have given
            // some in the range (its data does not decode), fails the job rather than leave a
            // file without the video it was asked for.
            if let appended, let silent = zip(tracks, appended).first(where: { plan, count in
                plan.track.mediaType == .video && count == 0
                    && (plan.track.contents.isEmpty
                        || plan.track.timeRange.isValid && plan.track.timeRange.intersection(range).duration > .zero)
            })?.0 {
                throw AVError(.exportFailed, reason: "the video track \(silent.track.trackID) gave no frames to write")
            }
            writer.finishNow()
            guard writer.status == .completed else {
                throw writer.error as? AVError ?? AVError(.exportFailed, reason: "the file could not be finished")
            }
        } catch {
            reader.cancelReading()
            writer.removeUnfinishedFile()
            throw error
        }
        progress(1)
    }

    /// The reader output of a track: the video composition's frames for the video track when
    /// there is a composition, the audio mix of every audio track when there is a mix, else the
    /// track's own samples.
    private func makeOutput(for plan: Track) -> AVAssetReaderOutput {
        if plan.track.mediaType == .video, let composition = options.videoComposition {
            let output = AVAssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video), videoSettings: plan.readerSettings)
            output.videoComposition = composition
            return output
        }
        if plan.track.mediaType == .audio, let mix = options.audioMix {
            let output = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .audio), audioSettings: plan.readerSettings)
            output.audioMix = mix
            return output
        }
        return AVAssetReaderTrackOutput(track: plan.track, outputSettings: plan.readerSettings)
    }

    /// A reader output and the writer input it feeds.
    private struct Lane {
        let output: AVAssetReaderOutput
        let input: AVAssetWriterInput
        /// The decode (or presentation) time of the last sample moved; the lane furthest
        /// behind moves next, so the tracks stay interleaved and the reader's queues short.
        var position: CMTime = .negativeInfinity
        /// The presentation time of the last decoded picture written.
        var lastPicture: CMTime = .negativeInfinity
        /// How many samples were written.
        var appended = 0
        var done = false
    }

    /// Moves samples from the reader to the writer until every lane is done. A reading thread
    /// demuxes, decodes and converts the next samples while this thread encodes and writes
    /// the ones before (a few samples ahead at most), so that the two overlap as GStreamer's
    /// queue elements make them overlap.
    /// Returns how many samples each lane wrote, or nil when the file length limit ended them.
    private func copy(_ lanes: [Lane], reader: AVAssetReader, writer: AVAssetWriter, range: CMTimeRange,
                      progress: (Float) -> Void) throws(AVError) -> [Int]? {
        let handOff = HandOff(capacity: 8)
        let readingDone = DispatchSemaphore(value: 0)
        let reading = Thread { [lanes] in
            Self.read(lanes, reader: reader, into: handOff)
            readingDone.signal()
        }
        reading.qualityOfService = .userInitiated
        reading.start()
        defer {
            // Whatever ended the copy, the reading thread stops and is gone before the reader
            // is cancelled or released.
            handOff.close()
            readingDone.wait()
        }
        return try write(lanes, from: handOff, writer: writer, range: range, progress: progress)
    }

    /// The reading side: the samples of every lane, interleaved by time, into `handOff`, then
    /// `.end`; stops early when the writing side closes it.
    private static func read(_ lanes: [Lane], reader: AVAssetReader, into handOff: HandOff) {
        var lanes = lanes
        while let index = lanes.indices.lazy.filter({ !lanes[$0].done }).min(by: { lanes[$0].position < lanes[$1].position }) {
            guard let sample = lanes[index].output.copyNextSampleBuffer() else {
                if reader.status == .failed {
                    _ = handOff.put(.failed(reader.error as? AVError ?? AVError(.decodeFailed, reason: "reading the source failed")))
                    return
                }
                lanes[index].done = true
                guard handOff.put(.laneEnded(index)) else { return }
                continue
            }
            let decodeTime = sample.decodeTimeStamp
            let time = decodeTime.isNumeric ? decodeTime : sample.presentationTimeStamp
            if time.isNumeric { lanes[index].position = time }
            guard handOff.put(.sample(index, sample)) else { return }
        }
        _ = handOff.put(reader.status == .failed
            ? .failed(reader.error as? AVError ?? AVError(.decodeFailed, reason: "reading the source failed")) : .end)
    }

    /// The writing side: appends what the reading side hands over, ends each input with its
    /// lane, and reports progress, until the end, a failure, the file length limit or a cancel.
    /// Returns how many samples each lane wrote, or nil when the file length limit ended them.
    private func write(_ lanes: [Lane], from handOff: HandOff, writer: AVAssetWriter, range: CMTimeRange,
                       progress: (Float) -> Void) throws(AVError) -> [Int]? {
        var lanes = lanes
        var reported: Float = 0
        var samplesWritten: Int64 = 0
        let limit = options.fileLengthLimit
        while let item = handOff.take() {
            if isCancelled { throw AVError(.operationCancelled, reason: "the export was cancelled") }
            let index: Int, sample: CMSampleBuffer
            switch item {
            case .end: return lanes.map(\.appended)
            case .failed(let error): throw error
            case .laneEnded(let ended):
                lanes[ended].input.markAsFinished()
                lanes[ended].done = true
                continue
            case .sample(let lane, let next): (index, sample) = (lane, next)
            }
            if limit > 0, case let written = lanes.lazy.filter({ !$0.done }).map(\.position).min() ?? range.start,
               Self.wouldExceed(limit, writer: writer, samplesWritten: samplesWritten,
                                mediaWritten: written.isNumeric ? (written - range.start).seconds : 0, next: sample) {
                // The file length limit: end every track here; the file stays under it.
                for other in lanes.indices where !lanes[other].done { lanes[other].input.markAsFinished() }
                return nil
            }
            let presentationTime = sample.presentationTimeStamp
            if sample.imageBuffer != nil, presentationTime.isNumeric {
                // A damaged file can decode to pictures whose times go back: they are dropped,
                // as ffmpeg drops them, since no encoder takes them.
                if presentationTime <= lanes[index].lastPicture { continue }
                lanes[index].lastPicture = presentationTime
            }
            guard lanes[index].input.append(sample) else {
                throw writer.error as? AVError ?? AVError(.exportFailed, reason: "writing the file failed")
            }
            samplesWritten += 1
            lanes[index].appended += 1
            let decodeTime = sample.decodeTimeStamp
            let time = decodeTime.isNumeric ? decodeTime : presentationTime
            if time.isNumeric { lanes[index].position = time }
            let behind = lanes.lazy.filter { !$0.done }.map(\.position).min() ?? range.end
            if range.duration > .zero, behind.isNumeric {
                let fraction = Float(max(0, min(1, (behind - range.start).seconds / range.duration.seconds)))
                if fraction > reported {
                    reported = fraction
                    progress(fraction)
                }
            }
        }
        return lanes.map(\.appended)
    }

    /// Whether writing `next` could take the finished file past `limit` bytes: what is written
    /// and held, the sample itself when stored as it is, what the encoders may still hold (a
    /// second of output at the rate so far: x264's and x265's look-ahead is shorter), and the
    /// movie header's index of every sample.
    private static func wouldExceed(_ limit: Int64, writer: AVAssetWriter, samplesWritten: Int64, mediaWritten: Double,
                                    next: CMSampleBuffer) -> Bool {
        let written = writer.estimatedFileSize
        let nextBytes = next.imageBuffer == nil ? Int64(CMSampleBufferGetTotalSampleSize(next)) : 0
        let inFlight = mediaWritten > 0.25 ? Int64(Double(written) / mediaWritten) : 0
        let trailer = 4096 + 32 * (samplesWritten + 1)
        return written + nextBytes + inFlight + trailer > limit
    }
}

/// What the reading side of an export hands to the writing side, through a blocking
/// `BoundedQueue`: at most `capacity` items wait; `put` blocks while full, `take` while empty,
/// and `close` (by the writing side, when it stops early) wakes both and makes every later
/// call return at once.
private final class HandOff: @unchecked Sendable {
    enum Item {
        /// A sample of the lane with this index.
        case sample(Int, CMSampleBuffer)
        /// The lane with this index has no more samples.
        case laneEnded(Int)
        /// Reading failed.
        case failed(AVError)
        /// Every lane has ended.
        case end
    }

    private let condition = NSCondition()
    private var items: BoundedQueue<Item>
    private var closed = false

    init(capacity: Int) { items = BoundedQueue(capacity: capacity, policy: .block) }

    /// Hands over `item`, waiting for room; false once closed.
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed, case .full = items.push(item) { condition.wait() }
        guard !closed else { return false }
        condition.broadcast()
        return true
    }

    /// The next item, waiting for one; nil once closed.
    func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        guard !closed, let item = items.pop() else { return nil }
        condition.broadcast()
        return item
    }

    /// Stops the hand-off: waiting and later calls return at once, and what waits is dropped.
    func close() {
        condition.lock()
        closed = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
