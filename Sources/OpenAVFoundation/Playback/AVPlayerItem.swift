import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// The presentation state of an asset played by a player: its status, its time, its tracks
/// and the outputs that take its video.
///
/// An item becomes `.readyToPlay` (or `.failed`) once a player has it and its asset has loaded.
open class AVPlayerItem: NSObject, @unchecked Sendable {
    /// What the item's properties come from: every write reports to the item's observers and
    /// to its player's (whose `timeControlStatus` follows the item's status).
    struct State {
        var status: Status = .unknown
        var error: Error?
        var tracks: [AVPlayerItemTrack] = []
        var outputs: [AVPlayerItemOutput] = []
        var forwardPlaybackEndTime: CMTime = .invalid
        var reversePlaybackEndTime: CMTime = .invalid
        var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm = .timeDomain
        var videoComposition: AVVideoComposition?
        var audioMix: AVAudioMix?
        var preferredForwardBufferDuration: TimeInterval = 0
        var preferredPeakBitRate: Double = 0
        var preferredMaximumResolution: CGSize = .zero
        /// Where the item stands while it is not playing: the time it starts from.
        var restingTime: CMTime = .zero
        /// "FILE", "VOD" or "LIVE" (an HTTP Live Stream of unknown length) once prepared.
        var playbackType: String?
        /// The item's one reading while it plays (see `reading`).
        var reading: ItemReading?
        /// What a network item's player has at hand: from where reading began to the end of
        /// the sound read ahead (set by the player).
        var loadedRange: CMTimeRange?
        /// Whether playback waits for data from the network (set by the player).
        var isStalled = false
        /// An HTTP Live Stream's variants, highest bit rate first (see
        /// `AssetContents.variants`), and the one playing.
        var variants: [(bitRate: Int, tracks: [Int])] = []
        var variantPlaying = 0
        /// The error log's events (see `errorLog()`).
        var errorEvents: [AVPlayerItemErrorLogEvent] = []
    }
    let state = ObservedState(State())

    /// The player playing the item (an item belongs to one player at a time).
    weak var player: AVPlayer?
    /// What the item's access log is made of.
    let accessRecord = PlaybackAccessRecord()
    /// The item's one reading while it plays: its sound, the pictures for its video outputs,
    /// the groups for its metadata outputs. Replaced by the player's thread; `stopOutputs()`
    /// ends it.
    var reading: ItemReading? {
        get { state.reading }
        set {
            let previous = state.update { state -> ItemReading? in
                defer { state.reading = newValue }
                return state.reading
            }
            if previous !== newValue { previous?.stop() }
        }
    }

    /// The pictures decoded for the item's video outputs while it plays.
    var videoQueue: VideoFrameQueue? { reading?.pictures }

    /// Stops the item's reading (its sound, pictures, timed metadata and subtitles): it no
    /// longer plays.
    func stopOutputs() {
        reading = nil
        for output in outputs {
            (output as? AVPlayerItemMetadataOutput)?.stop()
            (output as? AVPlayerItemLegibleOutput)?.stop()
        }
    }

    /// The asset the item presents.
    public let asset: AVAsset
    /// The asset keys loaded before the item becomes ready (they are all loaded together here).
    public let automaticallyLoadedAssetKeys: [String]
    /// The options chosen with `select(_:in:)` (see `currentMediaSelection`).
    let mediaSelection: AVMutableMediaSelection

    /// Creates an item for the asset at `url`.
    public convenience init(url: URL) {
        self.init(asset: AVURLAsset(url: url))
    }

    /// Creates an item for `asset`.
    public convenience init(asset: AVAsset) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: nil)
    }

    /// Creates an item for `asset` whose `keys` are loaded before it is ready.
    public init(asset: AVAsset, automaticallyLoadedAssetKeys keys: [String]?) {
        self.asset = asset
        automaticallyLoadedAssetKeys = keys ?? []
        mediaSelection = AVMutableMediaSelection(asset: asset)
        super.init()
        state.alsoTell { [weak self] in self?.player.map { [$0.engine.state.observers] } ?? [] }
    }

    /// Creates an item for `asset` whose `properties` are loaded before it is ready.
    public convenience init(asset: AVAsset, automaticallyLoadedAssetKeys properties: [AVPartialAsyncProperty<AVAsset>]) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: properties.map(\.key))
    }

    /// Whether the item can be played.
    open var status: Status { state.status }

    /// Why the item failed, when `status` is `.failed` (or why it stopped playing).
    open var error: Error? { state.error }

    /// The item's duration: indefinite until the item is ready.
    open var duration: CMTime { status == .readyToPlay ? asset.duration : .indefinite }

    /// The size at which the video is presented: the video composition's render size times its
    /// scale, else the first enabled video track's natural size turned by its preferred
    /// transform; zero without video.
    open var presentationSize: CGSize {
        if status == .readyToPlay, let composition = videoComposition {
            let scale = Double(composition.renderScale)
            return CGSize(width: composition.renderSize.width * scale, height: composition.renderSize.height * scale)
        }
        guard status == .readyToPlay, let track = tracks.first(where: { $0.isEnabled && $0.assetTrack?.mediaType == .video })?.assetTrack
        else { return .zero }
        let size = track.naturalSize.applying(track.preferredTransform)
        return CGSize(width: abs(size.width), height: abs(size.height))
    }

    /// The item's tracks, once it is ready.
    open var tracks: [AVPlayerItemTrack] { state.tracks }

    /// The timebase the item plays on while it is its player's current item: its time is the
    /// item's time, its rate the player's, and it posts `CMTimebase.effectiveRateChanged` and
    /// `CMTimebase.timeJumped` as playback starts, stops, seeks and moves to another item. It is
    /// read-only: setting it throws `CMTimebase.Error.readOnly`.
    ///
    /// Differs from Apple: nil while the item is not a player's current item; the timebase is the
    /// player's, which its next current item shows in turn.
    open var timebase: CMTimebase? {
        guard let player, player.currentItem === self else { return nil }
        return player.engine.clock.timebase
    }

    /// The item's current time.
    open func currentTime() -> CMTime {
        if let player, player.currentItem === self { return player.currentTime() }
        return state.restingTime
    }

    /// Where forward playback ends (invalid: the item's end).
    open var forwardPlaybackEndTime: CMTime {
        get { state.forwardPlaybackEndTime }
        set { state.forwardPlaybackEndTime = newValue }
    }

    /// Where reverse playback ends (invalid: the item's start).
    open var reversePlaybackEndTime: CMTime {
        get { state.reversePlaybackEndTime }
        set { state.reversePlaybackEndTime = newValue }
    }

    /// Where the item stops playing forward: `forwardPlaybackEndTime` when set, else its duration.
    var endTime: CMTime {
        let end = forwardPlaybackEndTime
        return end.isNumeric ? min(end, asset.duration) : asset.duration
    }

    /// The time ranges a seek may go to: the whole item, once ready.
    open var seekableTimeRanges: [NSValue] {
        status == .readyToPlay ? [NSValue(timeRange: CMTimeRange(start: .zero, duration: asset.duration))] : []
    }

    /// The time ranges whose media is at hand: a local file's whole length, once ready; for a
    /// network item that plays, from where reading began to the end of what was read ahead.
    open var loadedTimeRanges: [NSValue] {
        if let range = state.loadedRange { return [NSValue(timeRange: range)] }
        return seekableTimeRanges
    }

    /// Whether playback will likely go on without stalling: true for a ready local file, false
    /// while a network item waits for data.
    open var isPlaybackLikelyToKeepUp: Bool { status == .readyToPlay && !state.isStalled }
    /// Whether the playback buffer is empty: false for a ready local file, true while a network
    /// item waits for data.
    open var isPlaybackBufferEmpty: Bool { status != .readyToPlay || state.isStalled }
    /// Whether the playback buffer is full: true for a ready local file (it is all at hand).
    open var isPlaybackBufferFull: Bool { status == .readyToPlay }

    /// Whether rates above 1 can be played.
    open var canPlayFastForward: Bool { status == .readyToPlay }
    /// Whether rates between 0 and 1 can be played.
    open var canPlaySlowForward: Bool { status == .readyToPlay }
    /// Whether rates below 0 can be played: not yet on Linux.
    open var canPlayReverse: Bool { false }
    /// Whether rates below -1 can be played: not yet on Linux.
    open var canPlayFastReverse: Bool { false }
    /// Whether rates between -1 and 0 can be played: not yet on Linux.
    open var canPlaySlowReverse: Bool { false }
    /// Whether the item can step forward by frames.
    open var canStepForward: Bool { status == .readyToPlay }
    /// Whether the item can step backward by frames.
    open var canStepBackward: Bool { status == .readyToPlay }

    /// Moves the time by `stepCount` video frames (negative: backward), exactly, pausing.
    open func step(byCount stepCount: Int) {
        guard status == .readyToPlay else { return }
        let shortest = asset.tracks(withMediaType: .video).first?.minFrameDuration ?? .invalid
        let frame = shortest.isNumeric && shortest > .zero ? shortest : CMTime(value: 1, timescale: 30)
        let target = max(.zero, min(asset.duration, currentTime() + CMTimeMultiply(frame, multiplier: Int32(clamping: stepCount))))
        player?.rate = 0
        seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
    }

    /// Moves the time to `time` (within the default tolerance), then calls the handler with
    /// whether the seek finished (false when another seek replaced it).
    open func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity, completionHandler: completionHandler)
    }

    /// Moves the time to within the tolerances of `time`, then calls the handler. Differs from
    /// Apple: only `toleranceBefore` counts (the key frame at or before `time` when it is inside
    /// it, else exactly `time`); a key frame after `time` is not looked for.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
                   completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        if let player, player.currentItem === self {
            player.engine.seek(PlaybackSeek(time: time, toleranceBefore: toleranceBefore, completion: completionHandler))
        } else {
            state.restingTime = max(.zero, time)
            completionHandler?(true)
        }
    }

    /// Moves the time to `time`; whether the seek finished.
    open func seek(to time: CMTime) async -> Bool {
        await withCheckedContinuation { continuation in seek(to: time) { continuation.resume(returning: $0) } }
    }

    /// Moves the time to within the tolerances of `time`; whether the seek finished.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) async -> Bool {
        await withCheckedContinuation { continuation in
            seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) { continuation.resume(returning: $0) }
        }
    }

    /// How audio is stretched at rates other than 1 (`.timeDomain` by default).
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { state.audioTimePitchAlgorithm }
        set { state.audioTimePitchAlgorithm = newValue }
    }

    /// How the video tracks are composed into the pictures the item's outputs and layers
    /// show; a copy is kept. Set it before playing (or seek after setting it): pictures
    /// already decoded stay as they were.
    open var videoComposition: AVVideoComposition? {
        get { state.videoComposition }
        set { state.videoComposition = newValue?.copy() as? AVVideoComposition }
    }

    /// How the audio tracks are mixed: with a mix, every audio track plays at the volume its
    /// parameters give. Set it before playing (or seek after setting it).
    open var audioMix: AVAudioMix? {
        get { state.audioMix }
        set { state.audioMix = newValue }
    }

    /// How far ahead media is buffered, in seconds (0: the player chooses). A local file is
    /// decoded a few pictures and 100 ms of sound ahead whatever this says.
    open var preferredForwardBufferDuration: TimeInterval {
        get { state.preferredForwardBufferDuration }
        set { state.preferredForwardBufferDuration = newValue }
    }

    /// The highest bit rate, in bits per second, a stream variant may have (0: no limit). An
    /// HTTP Live Stream plays the variant of the highest bit rate within this and
    /// `preferredMaximumResolution` (the lowest when none is), and goes down a variant when
    /// it stalls. Set it before the item plays.
    ///
    /// Differs from Apple: the variant is chosen when the item gets ready and changed only on a
    /// stall, never back up.
    open var preferredPeakBitRate: Double {
        get { state.preferredPeakBitRate }
        set { state.preferredPeakBitRate = newValue }
    }

    /// The largest picture a stream variant may have (zero: no limit); see
    /// `preferredPeakBitRate`.
    open var preferredMaximumResolution: CGSize {
        get { state.preferredMaximumResolution }
        set { state.preferredMaximumResolution = newValue }
    }

    /// The outputs taking the item's media.
    open var outputs: [AVPlayerItemOutput] { state.outputs }

    /// Adds an output; a video output gets pictures, and a metadata output groups, from the next
    /// seek or play on.
    open func add(_ output: AVPlayerItemOutput) {
        let added = state.update { state -> Bool in
            guard !state.outputs.contains(where: { $0 === output }) else { return false }
            state.outputs.append(output)
            return true
        }
        guard added else { return }
        output.item = self
        player?.engine.outputsChanged(of: self)
    }

    /// Removes an output.
    open func remove(_ output: AVPlayerItemOutput) {
        state.update { $0.outputs.removeAll { $0 === output } }
        if output.item === self { output.item = nil }
        (output as? AVPlayerItemMetadataOutput)?.stop()
        (output as? AVPlayerItemLegibleOutput)?.stop()
        player?.engine.outputsChanged(of: self)
    }

    /// Observes a property (`status`, `duration`, `loadedTimeRanges`,
    /// `isPlaybackLikelyToKeepUp`, …), as key-value observing does on Apple platforms; reports
    /// run on the player's thread. Keep the returned observation as long as reports are wanted.
    public func observe<Value>(_ keyPath: KeyPath<AVPlayerItem, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (AVPlayerItem, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation {
        state.observers.observe(self, keyPath, options: options, changeHandler: changeHandler)
    }

    /// Loads the asset (on the player's thread) and becomes ready or failed.
    func prepare() {
        guard status == .unknown else { return }
        let outcome = asset.loader.contentsBlocking()
        let tracks = asset.tracks
        // The player's selection criteria choose first, outside the item's lock (they read the player's state).
        let groups = (try? outcome.get()).map { AVAsset.selectionGroups(of: asset, $0) } ?? []
        if let engine = player?.engine, engine.appliesSelectionCriteria {
            for group in groups where mediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: group) {
                guard let criteria = engine.selectionCriteria.withLock({ $0[group.characteristic] }) else { continue }
                mediaSelection.select(criteria.choice(in: group), in: group)
            }
        }
        state.update { state in
            switch outcome {
            case .success(let contents) where AVAsset.isPlayable(contents):
                state.tracks = tracks.filter { [.audio, .video, .metadata, .subtitle].contains($0.mediaType) }.map(AVPlayerItemTrack.init)
                state.variants = contents.variants
                if !state.variants.isEmpty { Self.enableVariant(Self.firstAllowedVariant(in: state, sizes: tracks), in: &state) }
                let isStream = contents.formatName == "hls"
                state.playbackType = isStream ? (asset.duration.isNumeric ? "VOD" : "LIVE") : "FILE"
                for group in groups { Self.present(mediaSelection, in: group, tracks: state.tracks) }
                state.status = .readyToPlay
            case .success:
                let error = AVError(.noSourceTrack, reason: "the asset has no audio or video track that can be decoded")
                state.status = .failed
                state.error = error
                logError(error, in: &state)
            case .failure(let error):
                state.status = .failed
                state.error = error
                logError(error, in: &state)
            }
        }
    }

    /// The first variant of `state` (highest bit rate first) within the preferred peak bit
    /// rate and maximum resolution, else the last; `sizes` are the asset's tracks.
    private static func firstAllowedVariant(in state: State, sizes tracks: [AVAssetTrack]) -> Int {
        let sizes = tracks.map { $0.mediaType == .video ? $0.naturalSize : .zero }
        let (peakBitRate, maximumResolution) = (state.preferredPeakBitRate, state.preferredMaximumResolution)
        return state.variants.firstIndex { variant in
            let fitsRate = peakBitRate <= 0 || Double(variant.bitRate) <= peakBitRate
            let fitsSize = maximumResolution == .zero || variant.tracks.allSatisfy { index in
                index >= sizes.count || (sizes[index].width <= maximumResolution.width && sizes[index].height <= maximumResolution.height)
            }
            return fitsRate && fitsSize
        } ?? state.variants.count - 1
    }

    /// Presents the tracks of variant `index` only.
    private static func enableVariant(_ index: Int, in state: inout State) {
        state.variantPlaying = index
        let streams = Set(state.variants[index].tracks)
        for track in state.tracks {
            track.isEnabled = track.assetTrack.map { streams.contains($0.contents.streamIndex) } ?? false
        }
    }

    /// The bit rate the item's stream needs, in bits per second: the variant's stated bit rate
    /// for an HTTP Live Stream, else the enabled tracks' estimated data rates; -1 if unknown.
    var indicatedBitrate: Double {
        let variantRate = state.read { $0.variants.isEmpty ? nil : Double($0.variants[$0.variantPlaying].bitRate) }
        if let variantRate { return variantRate }
        let rate = tracks.filter(\.isEnabled).compactMap(\.assetTrack).reduce(0) { $0 + Double($1.estimatedDataRate) }
        return rate > 0 ? rate : -1
    }

    /// Goes down to the variant of the next lower bit rate (an HTTP Live Stream that stalled);
    /// whether there was one.
    func switchToLowerVariant() -> Bool {
        state.update { state -> Bool in
            guard state.variantPlaying + 1 < state.variants.count else { return false }
            Self.enableVariant(state.variantPlaying + 1, in: &state)
            return true
        }
    }

    /// Records that the item stopped playing with `error`: it is `.failed` from then on, as
    /// Apple's item is after a playback error (a new item is needed to play it again).
    func fail(_ error: Error) {
        state.update { state in
            state.status = .failed
            state.error = error
            logError(error, in: &state)
        }
    }
}
