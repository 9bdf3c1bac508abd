import Dispatch
import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// One track of a file being written: sample buffers appended here are encoded with the output
/// settings (or stored as they are, with `nil` settings) by the writer it was added to.
open class AVAssetWriterInput: NSObject, @unchecked Sendable {
    /// What changes as samples are appended, behind one lock, reported to the observers of
    /// `isReadyForMoreMediaData` where it changes (and, by the writer, when its status does).
    struct State {
        var finished = false
        /// Counts `markCurrentPassAsFinished()` calls: a `requestMediaDataWhenReady(on:using:)`
        /// loop of an earlier pass stops.
        var passNumber = 0
        /// The current pass, from `startWriting()` until `markCurrentPassAsFinished()`.
        var pass: AVAssetWriterInputPassDescription?
        /// The block of `respondToEachPassDescription(on:using:)` and its queue.
        var passResponder: (queue: DispatchQueue, block: @Sendable () -> Void)?
        /// Whether `startWriting()` has begun the first pass.
        var passesBegan = false
        /// How many more samples the `requestMediaDataWhenReady(on:using:)` block now running
        /// may append before the input says it is not ready; nil outside the block.
        var requestAllowance: Int?
        /// The inputs this one names with `addTrackAssociation(withTrackOf:type:)`, and how.
        var associations: [(input: AVAssetWriterInput, type: AVAssetTrack.AssociationType)] = []
    }

    let state = ObservedState(State())
    /// How many samples one call of a `requestMediaDataWhenReady(on:using:)` block may append:
    /// the depth of an encoder's queue on Apple platforms, after which their input is not ready
    /// until the encoder has caught up.
    static let samplesPerRequest = 16
    weak var writer: AVAssetWriter?
    /// The input's track in the writer's file, once writing has started.
    var trackIndex: Int?
    /// What the output settings ask the engine for, or why they cannot be honoured.
    let plan: Swift.Result<EncoderSettings?, SettingsProblem>

    /// The media type of the samples appended.
    public let mediaType: AVMediaType
    /// The settings samples are encoded with; nil stores them as they come.
    public let outputSettings: [String: Any]?
    /// The format of the samples that will be appended, when known in advance.
    public let sourceFormatHint: CMFormatDescription?

    /// Whether samples come from a real-time source (a capture): the writer then never holds an
    /// append back. Appends are synchronous here, so this only documents intent.
    open var expectsMediaDataInRealTime = false
    /// The display matrix stored for the track.
    open var transform: CGAffineTransform = .identity
    /// Metadata items stored with the track.
    open var metadata: [AVMetadataItem] = []
    /// The display size stored for the track; `.zero` for the encoded size.
    open var naturalSize: CGSize = .zero
    /// The track's ISO 639-2/T language code.
    open var languageCode: String?
    /// The track's BCP 47 language tag.
    open var extendedLanguageTag: String?
    /// The track's time scale; 0 for the writer's choice.
    open var mediaTimeScale: CMTimeScale = 0
    /// Whether the track is enabled when the file is played.
    open var marksOutputTrackAsEnabled = true
    /// Whether the input should encode in several passes when its encoder can (default false).
    ///
    /// Accepted; the encoders here make one pass, so `canPerformMultiplePasses` stays false and
    /// the input follows Apple's single-pass rules (one pass description of all the media).
    open var performsMultiPassEncodingIfSupported = false

    /// Creates an input for `mediaType` samples encoded with `outputSettings` (nil: stored as
    /// they come; `sourceFormatHint` then describes them).
    public init(mediaType: AVMediaType, outputSettings: [String: Any]?, sourceFormatHint: CMFormatDescription?) {
        self.mediaType = mediaType
        self.outputSettings = outputSettings
        self.sourceFormatHint = sourceFormatHint
        plan = Self.plan(mediaType: mediaType, settings: outputSettings)
        super.init()
    }

    /// Creates an input for `mediaType` samples encoded with `outputSettings`.
    public convenience init(mediaType: AVMediaType, outputSettings: [String: Any]?) {
        self.init(mediaType: mediaType, outputSettings: outputSettings, sourceFormatHint: nil)
    }

    private static func plan(mediaType: AVMediaType, settings: [String: Any]?) -> Swift.Result<EncoderSettings?, SettingsProblem> {
        guard let settings else { return .success(nil) }
        do throws(SettingsProblem) {
            return .success(try WriterOutputSettings.encoderSettings(settings, mediaType: mediaType))
        } catch {
            return .failure(error)
        }
    }

    /// Whether the input takes more samples now: while the writer is writing and the input is
    /// not finished. Inside a `requestMediaDataWhenReady(on:using:)` block it turns false
    /// after `samplesPerRequest` samples, as Apple's does when its encoder's queue is full: the
    /// block returns, and is called again once the samples are written. (The encoders here work
    /// on the appending thread, so they have always caught up by then.)
    /// Key-value observable (`observe(_:options:changeHandler:)`): reported where it changes.
    open var isReadyForMoreMediaData: Bool {
        state.read { !$0.finished && ($0.requestAllowance ?? 1) > 0 } && writer?.status == .writing
    }

    /// Observes a property (`isReadyForMoreMediaData`), as key-value observing does on Apple
    /// platforms; reports run on the thread of the change (the appending one, or the writer's
    /// as it starts, fails or finishes). Keep the returned observation as long as reports are
    /// wanted.
    public func observe<Value>(_ keyPath: KeyPath<AVAssetWriterInput, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (AVAssetWriterInput, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation {
        state.observers.observe(self, keyPath, options: options, changeHandler: changeHandler)
    }

    /// Counts an append against the running request block's allowance. Outside such a block
    /// nothing changes, and nothing is reported.
    private func noteAppended() {
        guard state.requestAllowance != nil else { return }
        state.update { if let allowance = $0.requestAllowance { $0.requestAllowance = allowance - 1 } }
    }

    /// Appends a sample buffer; false when the input cannot take it (the writer's `status` and
    /// `error` say why).
    @discardableResult
    open func append(_ sampleBuffer: CMSampleBuffer) -> Bool {
        guard let writer, let trackIndex else {
            Misuse.fail(.inputAppendBeforeWriting)
        }
        Misuse.check(!state.finished, .inputAppendAfterFinished)
        noteAppended()
        return writer.append(sampleBuffer, track: trackIndex)
    }

    /// Appends a picture (the pixel buffer adaptor's path).
    func append(_ pixelBuffer: CVPixelBuffer, at time: CMTime) -> Bool {
        guard let writer, let trackIndex else {
            Misuse.fail(.pixelBufferAppendBeforeWriting)
        }
        Misuse.check(!state.finished, .pixelBufferAppendAfterFinished)
        noteAppended()
        return writer.append(pixelBuffer, at: time, track: trackIndex)
    }

    /// Says no more samples will be appended.
    open func markAsFinished() {
        let first = state.update { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if first, let writer, let trackIndex { writer.finishTrack(trackIndex) }
    }

    /// Whether `markAsFinished()` was called.
    var isFinished: Bool { state.finished }

    /// Calls `block` on `queue` again and again while the input is ready for more data; the
    /// block appends while `isReadyForMoreMediaData` (at most `samplesPerRequest` samples a
    /// call, so other work on the queue, such as a cancel, runs between calls) and calls
    /// `markAsFinished()` at the end. A call of `markCurrentPassAsFinished()` ends the loop.
    open func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        let pass = state.passNumber
        requestMediaData(on: queue, pass: pass, using: block)
    }

    private func requestMediaData(on queue: DispatchQueue, pass: Int, using block: @escaping @Sendable () -> Void) {
        queue.async { [weak self] in
            guard let self, self.state.passNumber == pass, self.isReadyForMoreMediaData else { return }
            self.state.requestAllowance = Self.samplesPerRequest
            block()
            self.state.requestAllowance = nil
            self.requestMediaData(on: queue, pass: pass, using: block)
        }
    }

    // MARK: Track associations

    /// Whether `addTrackAssociation(withTrackOf:type:)` can relate this input's track to
    /// `input`'s: both added to the same writer that has not started, and an association the
    /// file can store. Here that is a chapter list: `input` a text input (QuickTime or 3GPP
    /// text, stored as it comes) whose samples are this track's chapters, in a QuickTime or
    /// MP4 file.
    ///
    /// Differs from Apple: the other association types (fallbacks, forced subtitles, selection
    /// followers, time codes, metadata referents) cannot be written by FFmpeg's muxer, so they
    /// are refused.
    open func canAddTrackAssociation(withTrackOf input: AVAssetWriterInput, type trackAssociationType: String) -> Bool {
        guard input !== self, let writer, input.writer === writer, writer.status == .unknown,
              [.mov, .mp4, .m4v].contains(writer.outputFileType) else { return false }
        switch AVAssetTrack.AssociationType(rawValue: trackAssociationType) {
        case .chapterList:
            return input.mediaType == .text && input.outputSettings == nil && mediaType != .text
        default:
            return false
        }
    }

    /// Relates this input's track to `input`'s (for a chapter list, `input`'s samples are
    /// this track's chapters: each sample's text is a chapter's title, its time the chapter's
    /// start). The file gets a QuickTime chapter track that its tracks refer to (`chap`), as
    /// Apple's writer makes it. Adding one that `canAddTrackAssociation(withTrackOf:type:)`
    /// refuses is a programmer error.
    open func addTrackAssociation(withTrackOf input: AVAssetWriterInput, type trackAssociationType: String) {
        Misuse.check(canAddTrackAssociation(withTrackOf: input, type: trackAssociationType), .trackAssociationNotAccepted)
        state.update { $0.associations.append((input, AVAssetTrack.AssociationType(rawValue: trackAssociationType))) }
    }

    /// Whether another input names this one as its chapter list.
    func isChapterList(among inputs: [AVAssetWriterInput]) -> Bool {
        inputs.contains { other in other.state.associations.contains { $0.input === self && $0.type == .chapterList } }
    }

    // MARK: Passes

    /// Whether the input may ask for the media again in further passes: always false here (the
    /// encoders make one pass), so the media is appended once and `markAsFinished()` called.
    open var canPerformMultiplePasses: Bool { false }

    /// What the current pass asks for: nil before `startWriting()`, then one range from zero to
    /// positive infinity (all the media), then nil again after `markCurrentPassAsFinished()`,
    /// when `markAsFinished()` is due.
    open var currentPassDescription: AVAssetWriterInputPassDescription? { state.pass }

    /// Calls `block` on `queue` when each pass begins, and once more when no pass is left
    /// (`currentPassDescription` is then nil). Call it after `startWriting()`, once.
    open func respondToEachPassDescription(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        let began: Bool = state.update { state in
            Misuse.check(state.passResponder == nil, .passResponderSetTwice)
            Misuse.check(writer != nil && state.passesBegan, .passResponderBeforeWriting)
            state.passResponder = (queue, block)
            return state.passesBegan
        }
        if began { queue.async(execute: block) }
    }

    /// Ends the current pass. The encoders here make one pass, so no pass follows:
    /// `currentPassDescription` becomes nil, a `requestMediaDataWhenReady(on:using:)` loop
    /// stops, and the `respondToEachPassDescription(on:using:)` block is called once more so
    /// that it can call `markAsFinished()`.
    open func markCurrentPassAsFinished() {
        let responder: (queue: DispatchQueue, block: @Sendable () -> Void)? = state.update { state in
            Misuse.check(writer != nil && state.passesBegan, .passFinishedBeforeWriting)
            state.passNumber += 1
            guard state.pass != nil else { return nil }
            state.pass = nil
            return state.passResponder
        }
        if let responder { responder.queue.async(execute: responder.block) }
    }

    /// Begins the first (and only) pass: called by the writer's `startWriting()`.
    func beginFirstPass() {
        state.update { state in
            state.passesBegan = true
            state.pass = AVAssetWriterInputPassDescription(timeRanges: [CMTimeRange(start: .zero, duration: .positiveInfinity)])
        }
    }

    /// The muxer's options for the track.
    var trackOptions: MuxerTrackOptions {
        MuxerTrackOptions(timeScale: mediaTimeScale > 0 ? mediaTimeScale : nil, languageCode: languageCode,
                          metadata: MetadataTags.ffmpegTags(of: metadata),
                          transform: transform == .identity ? nil : transform)
    }
}
