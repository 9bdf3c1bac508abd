import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// Writes media to a new movie or audio file from sample buffers appended to its inputs.
///
/// Every input is encoded (or stored as it comes) by one writer: FFmpeg's encoders and its
/// MOV/MP4 muxer. File types: `.mov`, `.mp4`, `.m4v`, `.m4a`.
open class AVAssetWriter: NSObject, @unchecked Sendable {
    /// Where a writer stands.
    public enum Status: Int, Sendable {
        /// Inputs may be added; writing has not started.
        case unknown = 0
        /// Writing is under way.
        case writing = 1
        /// The file is finished.
        case completed = 2
        /// Writing failed; `error` says why.
        case failed = 3
        /// `cancelWriting()` stopped writing and removed the file.
        case cancelled = 4
    }

    /// What changes as the writer works, behind one lock, reported to observers of `status`
    /// and of its inputs' `isReadyForMoreMediaData` where it changes.
    private struct State {
        var status: Status = .unknown
        var error: Error?
        var inputs: [AVAssetWriterInput] = []
        var core: MovieWriter?
        var sessionStarted = false
        /// Hands segments to the delegate, once writing has started.
        var delivery: SegmentDelivery?
    }

    private let state = ObservedState(State())
    /// Whether the writer hands segments to its delegate instead of writing a file.
    private let writesSegments: Bool

    /// The file being written; a `segments:` URL for a writer made with `init(contentType:)`,
    /// which writes no file.
    public let outputURL: URL
    /// The type of the file.
    public let outputFileType: AVFileType

    /// Metadata items stored in the file.
    open var metadata: [AVMetadataItem] = []
    /// Whether the movie header goes at the start of the file, so it can play while it downloads.
    open var shouldOptimizeForNetworkUse = false
    /// When valid, the movie is written in fragments of this length, so that a writer stopped
    /// abruptly leaves a playable file up to the last fragment. Invalid (the default): no
    /// fragments.
    open var movieFragmentInterval: CMTime = .invalid
    /// How long the movie is expected to be (a hint; accepted).
    open var overallDurationHint: CMTime = .invalid
    /// The movie's time scale; 0 for the writer's choice.
    open var movieTimeScale: CMTimeScale = 0
    /// Where to put temporary files (not needed here; accepted).
    open var directoryForTemporaryFiles: URL?
    /// The profile segments follow (`.mpeg4AppleHLS` or `.mpeg4CMAFCompliant`); required by a
    /// writer of MPEG-4 segments. Set it before `startWriting()`.
    ///
    /// Differs from Apple: both profiles write the same fragmented MP4 (no CMAF brand and no
    /// `styp` box for `.mpeg4CMAFCompliant`).
    open var outputFileTypeProfile: AVFileTypeProfile?
    /// How long segments are: a segment is cut at the first sync sample (of the video track, if
    /// there is one) at or after each multiple of the interval from `initialSegmentStartTime`.
    /// `.indefinite`: only `flushSegment()` cuts. Invalid (the default): the writer picks 6 s.
    /// Set it before `startWriting()`.
    ///
    /// Differs from Apple: a video input that encodes is not made to start a sync sample at the
    /// boundary; the segment waits for the encoder's next one (set
    /// `AVVideoMaxKeyFrameIntervalKey` to the interval's frame count to line them up).
    open var preferredOutputSegmentInterval: CMTime = .invalid
    /// Where the segment intervals are counted from (a source time); required when
    /// `preferredOutputSegmentInterval` is numeric.
    open var initialSegmentStartTime: CMTime = .invalid
    /// Receives the segments of a writer made with `init(contentType:)`.
    open weak var delegate: AVAssetWriterDelegate?

    /// Creates a writer of a new file at `outputURL`; throws when something exists there (a
    /// writer never overwrites), the URL is not a file URL, or the type is not one it writes.
    public init(outputURL: URL, fileType outputFileType: AVFileType) throws {
        guard outputURL.isFileURL else {
            throw AVError(.invalidOutputURLPathExtension, reason: "\(outputURL) is not a file URL")
        }
        guard [.mov, .mp4, .m4v, .m4a].contains(outputFileType), outputFileType.ffmpegMuxerName != nil else {
            throw AVError(.formatUnsupported, reason: "file type \(outputFileType.rawValue) cannot be written")
        }
        if FileManager.default.fileExists(atPath: outputURL.path) {
            throw AVError(.fileAlreadyExists, reason: "\(outputURL.path) exists; AVAssetWriter does not overwrite files",
                          userInfo: [NSFilePathErrorKey: outputURL.path])
        }
        self.outputURL = outputURL
        self.outputFileType = outputFileType
        writesSegments = false
        super.init()
        tellInputsObservers()
    }

    /// Creates a writer that writes no file but hands segments of a fragmented MPEG-4 movie
    /// (`UTType.mpeg4Movie`) to its `delegate`: the initialization segment, then a segment
    /// every `preferredOutputSegmentInterval`, or at each `flushSegment()`. Set
    /// `outputFileTypeProfile` and the delegate before `startWriting()`, which fails with
    /// `AVError.incorrectlyConfigured` when something is missing or another type is given.
    public init(contentType outputContentType: UTType) {
        outputURL = URL(string: "segments:")!
        outputFileType = AVFileType(rawValue: outputContentType.identifier)
        writesSegments = true
        super.init()
        tellInputsObservers()
    }

    /// Has the writer's state report to its inputs' observers too: their readiness follows
    /// the writer's status.
    private func tellInputsObservers() {
        state.alsoTell { [weak self] in self?.inputs.map(\.state.observers) ?? [] }
    }

    /// Creates a writer of a new file at `outputURL` (Apple's class-method spelling,
    /// `assetWriterWithURL:fileType:error:`); the same rules as `init(outputURL:fileType:)`.
    public convenience init(url outputURL: URL, fileType outputFileType: AVFileType) throws {
        try self.init(outputURL: outputURL, fileType: outputFileType)
    }

    /// The inputs added so far.
    open var inputs: [AVAssetWriterInput] { state.inputs }
    /// Where writing stands.
    open var status: Status { state.status }
    /// Why writing failed, when `status` is `.failed`.
    open var error: Error? { state.error }
    /// The media types inputs may carry: video, audio and text (QuickTime or 3GPP timed text,
    /// stored as it comes) in movies; audio in M4A files.
    open var availableMediaTypes: [AVMediaType] { Self.availableMediaTypes(of: outputFileType) }

    /// The media types a file of `fileType` can hold.
    static func availableMediaTypes(of fileType: AVFileType) -> [AVMediaType] { fileType == .m4a ? [.audio] : [.video, .audio, .text, .subtitle] }

    /// Whether settings could be applied to an input of `mediaType` in this file type.
    open func canApply(outputSettings: [String: Any]?, forMediaType mediaType: AVMediaType) -> Bool {
        Self.canStore(outputSettings: outputSettings, mediaType: mediaType, in: outputFileType)
    }

    /// Whether a file of `fileType` can hold `mediaType` samples encoded with `outputSettings`
    /// (nil: stored as they come), without making a writer.
    package static func canStore(outputSettings: [String: Any]?, mediaType: AVMediaType, in fileType: AVFileType) -> Bool {
        guard availableMediaTypes(of: fileType).contains(mediaType) else { return false }
        guard let outputSettings else { return true }
        guard let settings = try? WriterOutputSettings.encoderSettings(outputSettings, mediaType: mediaType) else { return false }
        return Self.fileType(fileType, accepts: settings)
    }

    /// Whether the container can hold a codec.
    static func fileType(_ type: AVFileType, accepts settings: EncoderSettings) -> Bool {
        switch settings {
        case .video(let video):
            if type == .m4a { return false }
            let proRes: Set<EncoderSettings.VideoCodec> = [.proRes422, .proRes422HQ, .proRes422LT, .proRes422Proxy, .proRes4444]
            return type == .mov || !proRes.contains(video.codec)
        case .audio(let audio):
            if case .linearPCM = audio.codec { return type == .mov }
            return true
        }
    }

    /// Whether `input` can be added: writing has not started, the input is new, its media type
    /// fits the file and its settings can be honoured.
    open func canAdd(_ input: AVAssetWriterInput) -> Bool {
        guard state.read({ $0.status == .unknown && !$0.inputs.contains { $0 === input } }), input.writer == nil else { return false }
        guard case .success(let settings) = input.plan, availableMediaTypes.contains(input.mediaType) else { return false }
        return settings.map { Self.fileType(outputFileType, accepts: $0) }
            ?? input.sourceFormatHint.map { Self.canStore(passthrough: $0, in: outputFileType) } ?? true
    }

    /// Whether a `fileType` file can hold samples of `description` as they are (a passthrough
    /// input's): FFmpeg's muxer for it stores the codec (a QuickTime movie refuses Opus and
    /// FLAC, for one).
    package static func canStore(passthrough description: CMFormatDescription, in fileType: AVFileType) -> Bool {
        guard let muxer = fileType.ffmpegMuxerName else { return false }
        return Muxer.canStore(description, fileType: muxer)
    }

    /// Why a `fileType` file cannot hold samples of `description` as they are, naming the codec
    /// and the file types among `alternatives` that can; nil when it can.
    package static func passthroughRefusal(_ description: CMFormatDescription, in fileType: AVFileType,
                                           alternatives: [AVFileType]) -> String? {
        guard !canStore(passthrough: description, in: fileType) else { return nil }
        let codec = CodecMapping.codecName(for: CMFormatDescriptionGetMediaSubType(description))
        let others = alternatives.filter { $0 != fileType && canStore(passthrough: description, in: $0) }
            .compactMap { $0.pathExtensions.first.map { "." + $0 } }
        return "a \(fileType.pathExtensions.first.map { "." + $0 } ?? fileType.rawValue) file cannot carry \(codec) as it is; "
            + (others.isEmpty ? "re-encode it" : "\(others.joined(separator: " or ")) can, or re-encode it")
    }

    /// Adds an input. Adding after `startWriting()` or adding an input twice is a programmer
    /// error (Apple raises an exception; here the process stops with a message).
    ///
    /// Differs from Apple: an input whose settings cannot be honoured (`canAdd(_:)` is false) is
    /// accepted, and `startWriting()` then fails with `AVError.unsupportedOutputSettings`
    /// naming the problem, instead of raising an exception.
    open func add(_ input: AVAssetWriterInput) {
        state.update { state in
            Misuse.check(state.status == .unknown, .writerInputAddedAfterStart)
            Misuse.check(input.writer == nil && !state.inputs.contains { $0 === input }, .writerInputAlreadyAdded)
            input.writer = self
            state.inputs.append(input)
        }
    }

    /// Creates the file and the encoders; false (with `status` `.failed` and `error` set)
    /// when the file cannot be created or an encoder refuses its settings.
    @discardableResult
    open func startWriting() -> Bool {
        let inputs: [AVAssetWriterInput] = state.read { state in
            Misuse.check(state.status == .unknown, .writerStartedTwice)
            return state.inputs
        }
        var plans: [MovieWriter.TrackPlan] = []
        for input in inputs {
            switch input.plan {
            case .success(let settings):
                if let settings, !Self.fileType(outputFileType, accepts: settings) {
                    fail(AVError(.unsupportedOutputSettings, reason: "a \(outputFileType.rawValue) file cannot hold that \(input.mediaType.rawValue) format"))
                    return false
                }
                plans.append(MovieWriter.TrackPlan(settings: settings, formatHint: input.sourceFormatHint, options: input.trackOptions,
                                                   isChapterList: input.isChapterList(among: inputs)))
            case .failure(let problem):
                fail(AVError(.unsupportedOutputSettings, reason: problem.description))
                return false
            }
        }
        let options = Muxer.Options(fastStart: shouldOptimizeForNetworkUse,
                                    movieFragmentInterval: movieFragmentInterval.isNumeric && movieFragmentInterval > .zero
                                        ? movieFragmentInterval : nil,
                                    metadata: MetadataTags.ffmpegTags(of: metadata),
                                    usesMetadataKeys: MetadataTags.usesQuickTimeMetadata(metadata),
                                    attachedPictures: MetadataTags.attachedPictures(of: metadata))
        do {
            let core = writesSegments
                ? try segmentWriter(options: options, plans: plans, inputs: inputs)
                : try MovieWriter(url: outputURL, fileType: outputFileType.ffmpegMuxerName!, options: options, plans: plans)
            for (index, input) in inputs.enumerated() {
                input.trackIndex = index
                input.beginFirstPass()
            }
            state.update { state in
                state.core = core
                state.status = .writing
            }
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// The writer of a segmenting writer (`init(contentType:)`), once its settings are checked
    /// as Apple's are when writing starts.
    private func segmentWriter(options: Muxer.Options, plans: [MovieWriter.TrackPlan], inputs: [AVAssetWriterInput]) throws(AVError) -> MovieWriter {
        func refuse(_ reason: String) -> AVError { AVError(.incorrectlyConfigured, reason: reason) }
        guard outputFileType == .mp4 else { throw refuse("AVAssetWriter(contentType:) writes segments of UTType.mpeg4Movie only, not \(outputFileType.rawValue)") }
        guard let profile = outputFileTypeProfile, [.mpeg4AppleHLS, .mpeg4CMAFCompliant].contains(profile) else {
            throw refuse("outputFileTypeProfile must be .mpeg4AppleHLS or .mpeg4CMAFCompliant to write MPEG-4 segments")
        }
        guard delegate != nil else { throw refuse("a writer of segments needs a delegate to hand them to") }
        var interval = preferredOutputSegmentInterval
        if !interval.isValid { interval = CMTime(value: 6, timescale: 1) }
        let cut: MuxerSegments.Cut
        if interval.isIndefinite {
            guard plans.allSatisfy({ $0.settings == nil }) else {
                throw refuse("with preferredOutputSegmentInterval .indefinite every input must store samples as they are (nil output settings)")
            }
            cut = .onRequest
        } else {
            guard interval.isNumeric, interval > .zero else { throw refuse("preferredOutputSegmentInterval must be .indefinite or a positive time") }
            guard initialSegmentStartTime.isNumeric else {
                throw refuse("initialSegmentStartTime must be a numeric time when preferredOutputSegmentInterval is")
            }
            cut = .every(interval, origin: initialSegmentStartTime)
        }
        let delivery = SegmentDelivery(writer: self,
                                       tracks: inputs.enumerated().map { (CMPersistentTrackID($0.offset + 1), $0.element.mediaType) })
        state.delivery = delivery
        let muxer: Muxer
        do throws(EngineError) {
            muxer = try Muxer(segmentsOf: "mp4", options: options, cut: cut) { data, isInitialization, summaries in
                delivery.deliver(data, isInitialization: isInitialization, summaries: summaries)
            }
        } catch {
            throw AVError(error, fallback: .unsupportedOutputSettings)
        }
        return try MovieWriter(muxer: muxer, fileType: "mp4", plans: plans)
    }

    /// Ends the segment under way and hands it to the delegate: what was appended since the
    /// last one. For a writer of segments whose `preferredOutputSegmentInterval` is
    /// `.indefinite`; call it just before appending a sync sample, so that each segment starts
    /// with one.
    open func flushSegment() {
        Misuse.check(writesSegments && preferredOutputSegmentInterval.isIndefinite, .segmentFlushNotAllowed)
        guard let core = state.read({ $0.status == .writing ? $0.core : nil }) else { return }
        do {
            try core.flushSegment()
        } catch {
            fail(error)
        }
    }

    /// Records a failure.
    private func fail(_ error: Error) {
        state.update { state in
            guard state.status == .unknown || state.status == .writing else { return }
            state.status = .failed
            state.error = error
        }
    }

    /// Starts the session: samples at `startTime` are written at time zero of the file.
    open func startSession(atSourceTime startTime: CMTime) {
        let core = state.update { state in
            Misuse.check(state.status == .writing || state.status == .failed, .sessionStartedBeforeWriting)
            Misuse.check(!state.sessionStarted, .sessionStartedTwice)
            state.sessionStarted = true
            return state.core
        }
        core?.startSession(at: startTime)
        if writesSegments, initialSegmentStartTime.isNumeric { core?.setSegmentOrigin(initialSegmentStartTime, sessionStart: startTime) }
    }

    /// Ends the session: samples at or after `endTime` are not written.
    open func endSession(atSourceTime endTime: CMTime) {
        state.core?.endSession(at: endTime)
    }

    /// Appends a sample for input track `index`.
    func append(_ sample: CMSampleBuffer, track index: Int) -> Bool {
        guard let core = writingCore() else { return false }
        do {
            try core.append(sample, track: index)
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// Appends a picture for input track `index`.
    func append(_ pixelBuffer: CVPixelBuffer, at time: CMTime, track index: Int) -> Bool {
        guard let core = writingCore() else { return false }
        do {
            try core.append(pixelBuffer, at: time, track: index)
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// The core while writing; nil otherwise.
    private func writingCore() -> MovieWriter? {
        state.read { state in
            Misuse.check(state.status != .unknown, .appendBeforeWriting)
            Misuse.check(state.sessionStarted || state.status != .writing, .appendBeforeSession)
            return state.status == .writing ? state.core : nil
        }
    }

    /// An input finished: drain its encoder.
    func finishTrack(_ index: Int) {
        guard let core = state.read({ $0.status == .writing ? $0.core : nil }) else { return }
        do {
            try core.finishTrack(index)
        } catch {
            fail(error)
        }
    }

    /// Finishes the file on a background queue (a writer of segments hands on its last
    /// segment, and the delegate has every segment), then calls `handler`; `status` is then
    /// `.completed` or `.failed`.
    open func finishWriting(completionHandler handler: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            self.finishNow()
            if let delivery = self.state.delivery {
                delivery.afterDelivered(handler)
            } else {
                handler()
            }
        }
    }

    /// Finishes the file.
    open func finishWriting() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            finishWriting { done.resume() }
        }
    }

    /// Marks every input finished, drains the encoders and writes the trailer, on the calling
    /// thread (the export session's path).
    func finishNow() {
        guard let core = state.read({ $0.status == .writing ? $0.core : nil }) else { return }
        for input in inputs where !input.isFinished { input.markAsFinished() }
        do {
            try core.finish()
            state.update { if $0.status == .writing { $0.status = .completed } }
        } catch {
            fail(error)
        }
    }

    /// The file's size so far, counting what the muxer holds for it; 0 before writing.
    var estimatedFileSize: Int64 { state.core?.estimatedFileSize ?? 0 }

    /// Removes what a writer that did not complete wrote (a failed or cancelled export leaves
    /// nothing behind); does nothing to a completed file.
    func removeUnfinishedFile() {
        let (core, delivery): (MovieWriter?, SegmentDelivery?) = state.update { state in
            guard state.status != .completed else { return (nil, nil) }
            if state.status == .writing || state.status == .unknown { state.status = .cancelled }
            return (state.core, state.delivery)
        }
        delivery?.cancel()
        core?.cancel()
    }

    /// Stops writing and removes the partial file.
    open func cancelWriting() {
        let (core, delivery): (MovieWriter?, SegmentDelivery?) = state.update { state in
            guard state.status == .writing || state.status == .unknown else { return (nil, nil) }
            state.status = .cancelled
            return (state.core, state.delivery)
        }
        // First, so that an append waiting for the delegate (and holding the core) stops waiting.
        delivery?.cancel()
        core?.cancel()
    }
}
