import Foundation
import OpenCoreMedia

/// Exports an asset to a new file in the form an export preset describes: transcoded to a
/// size and codec, or trimmed and copied as it is (`AVAssetExportPresetPassthrough`).
///
/// The export is the asset's reader feeding the one writer behind `AVAssetWriter`. A
/// passthrough trim starts at the key frame at or before `timeRange.start` and writes an edit
/// list, so playback starts exactly at the asked time. An export that fails or is cancelled
/// leaves nothing at `outputURL`, and an existing file there is never overwritten.
///
/// Differs from Apple: exports never wait for one another,
/// so `status` goes from `.unknown` straight to `.exporting`.
open class AVAssetExportSession: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private let preset: ExportPreset
    private var statusValue: Status = .unknown
    private var errorValue: Error?
    private var progressValue: Float = 0
    private var job: ExportJob?
    private var cancelRequested = false
    private var watchers: [UUID: @Sendable () -> Void] = [:]

    /// The asset exported.
    public let asset: AVAsset
    /// The preset the session was made with.
    public let presetName: String

    /// Where the file is written; it must not exist.
    open var outputURL: URL?
    /// The type of the file written; one of `supportedFileTypes`. When nil, the type follows
    /// `outputURL`'s extension (.mov, .mp4, .m4v, .m4a).
    open var outputFileType: AVFileType?
    /// The part of the asset exported; the whole asset by default.
    open var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
    /// The file's metadata; nil copies the asset's (through `metadataItemFilter`).
    open var metadata: [AVMetadataItem]?
    /// Removes metadata items before they are written, such as `AVMetadataItemFilter.forSharing()`.
    open var metadataItemFilter: AVMetadataItemFilter?
    /// When positive, the file stays at or under this many bytes: the export ends early, with
    /// a complete, playable file.
    open var fileLengthLimit: Int64 = 0
    /// Whether the movie header goes first, so the file plays while it downloads.
    open var shouldOptimizeForNetworkUse = false
    /// How the video tracks are composed (not applied yet: see the type's note).
    open var videoComposition: AVVideoComposition?
    /// How the audio tracks are mixed (not applied yet: see the type's note).
    open var audioMix: AVAudioMix?
    /// How time-scaled audio is stretched (with the editing chapter's scaled segments).
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm = .spectral
    /// Whether the export may read the source more than once for better quality (accepted;
    /// exports here make one pass).
    open var canPerformMultiplePassesOverSourceMediaData = false
    /// Where temporary files would go (accepted; exports here write none).
    open var directoryForTemporaryFiles: URL?
    /// Whether the export may use more resources in parallel to finish sooner (default true).
    /// Accepted: an export here always runs as one reader feeding one writer, with the codecs'
    /// own threads, which Apple's rule ("if parallelization isn't achievable, export proceeds as
    /// normal") allows.
    open var allowsParallelizedExport = true

    /// A session exporting `asset` with the preset named `presetName`; nil for a name that is
    /// not one of `allExportPresets()`.
    public init?(asset: AVAsset, presetName: String) {
        guard let preset = ExportPreset.named(presetName) else { return nil }
        self.asset = asset
        self.presetName = presetName
        self.preset = preset
        super.init()
    }

    // MARK: Presets and file types

    /// The names of every preset.
    open class func allExportPresets() -> [String] {
        ExportPreset.all.map(\.name)
    }

    /// The presets that can export `asset` to some file type (blocks until the asset's tracks
    /// are loaded).
    open class func exportPresets(compatibleWith asset: AVAsset) -> [String] {
        ExportPreset.all.filter { !$0.compatibleFileTypes(for: asset).isEmpty }.map(\.name)
    }

    /// Tells `handler` whether the preset can export `asset` to a file of `outputFileType`
    /// (nil: to some file type).
    open class func determineCompatibility(ofExportPreset presetName: String, with asset: AVAsset, outputFileType: AVFileType?,
                                           completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async {
            handler(isCompatible(presetName, asset, outputFileType))
        }
    }

    /// Whether the preset can export `asset` to a file of `outputFileType` (nil: to some file type).
    open class func compatibility(ofExportPreset presetName: String, with asset: AVAsset, outputFileType: AVFileType?) async -> Bool {
        await withCheckedContinuation { done in
            determineCompatibility(ofExportPreset: presetName, with: asset, outputFileType: outputFileType) { done.resume(returning: $0) }
        }
    }

    private static func isCompatible(_ presetName: String, _ asset: AVAsset, _ fileType: AVFileType?) -> Bool {
        guard let preset = ExportPreset.named(presetName) else { return false }
        let types = preset.compatibleFileTypes(for: asset)
        return fileType.map(types.contains) ?? !types.isEmpty
    }

    /// The file types the preset writes (blocks until the asset's tracks are loaded).
    open var supportedFileTypes: [AVFileType] { preset.compatibleFileTypes(for: asset) }

    /// Tells `handler` the file types this session can write.
    open func determineCompatibleFileTypes(completionHandler handler: @escaping @Sendable ([AVFileType]) -> Void) {
        DispatchQueue.global().async { handler(self.supportedFileTypes) }
    }

    /// The file types this session can write, loaded without blocking.
    open var compatibleFileTypes: [AVFileType] {
        get async {
            await withCheckedContinuation { done in determineCompatibleFileTypes { done.resume(returning: $0) } }
        }
    }

    // MARK: Estimates

    /// The exported range's duration, from the asset's duration and `timeRange`.
    private var exportedDuration: CMTime {
        ExportJob.effectiveRange(timeRange, assetDuration: asset.duration, origin: asset.timelineOrigin).duration
    }

    /// The longest part of the asset the preset can write within `fileLengthLimit`, at the
    /// preset's rates; the exported range's duration when there is no limit.
    open var maxDuration: CMTime {
        let duration = exportedDuration
        guard fileLengthLimit > 0 else { return duration }
        let rate = preset.estimatedBytesPerSecond(for: asset)
        guard rate > 0 else { return duration }
        let fitting = CMTime(seconds: Double(fileLengthLimit) / rate, preferredTimescale: 600)
        return duration.isNumeric ? CMTimeMinimum(duration, fitting) : fitting
    }

    /// The expected size of the file, in bytes, from the preset's rates (or the source's data
    /// rates for passthrough), the exported duration and `fileLengthLimit`.
    open var estimatedOutputFileLength: Int64 {
        let seconds = exportedDuration.seconds
        guard seconds.isFinite else { return 0 }
        let estimate = Int64(preset.estimatedBytesPerSecond(for: asset) * seconds)
        return fileLengthLimit > 0 ? min(estimate, fileLengthLimit) : estimate
    }

    /// Tells `handler` the expected size of the file, in bytes.
    open func estimateOutputFileLength(completionHandler handler: @escaping @Sendable (Int64, Error?) -> Void) {
        DispatchQueue.global().async { handler(self.estimatedOutputFileLength, nil) }
    }


    /// The expected size of the file, in bytes, loaded without blocking.
    open var estimatedOutputFileLengthInBytes: Int64 {
        get async throws {
            await withCheckedContinuation { done in estimateOutputFileLength { length, _ in done.resume(returning: length) } }
        }
    }

    /// Tells `handler` the longest duration the export can write within `fileLengthLimit`.
    open func estimateMaximumDuration(completionHandler handler: @escaping @Sendable (CMTime, Error?) -> Void) {
        DispatchQueue.global().async { handler(self.maxDuration, nil) }
    }


    /// The longest duration the export can write within `fileLengthLimit`, loaded without blocking.
    open var estimatedMaximumDuration: CMTime {
        get async throws {
            await withCheckedContinuation { done in estimateMaximumDuration { duration, _ in done.resume(returning: duration) } }
        }
    }

    // MARK: Exporting

    /// Where the export stands.
    open var status: Status { lock.withLock { statusValue } }
    /// How far the export is, from 0 to 1; it never goes back, and is 1 once completed.
    open var progress: Float { lock.withLock { progressValue } }
    /// Why the export failed, when `status` is `.failed` (or `.cancelled`).
    open var error: Error? { lock.withLock { errorValue } }

    /// Starts the export on a background queue and calls `handler` once it has completed,
    /// failed or been cancelled; `status` and `error` then say which.
    open func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) {
        let started: Bool = lock.withLock {
            guard statusValue == .unknown else { return false }
            statusValue = cancelRequested ? .cancelled : .exporting
            if cancelRequested { errorValue = AVError(.operationCancelled, reason: "the export was cancelled before it started") }
            return !cancelRequested
        }
        notifyWatchers()
        guard started else {
            DispatchQueue.global().async(execute: handler)
            return
        }
        DispatchQueue.global(qos: .userInitiated).async {
            self.run()
            handler()
        }
    }

    /// Exports, returning once the export has completed, failed or been cancelled.
    open func export() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            exportAsynchronously { done.resume() }
        }
    }

    /// Exports to a new file at `url` of type `fileType`; throws the export's error, or
    /// `CancellationError` when it was cancelled (by `cancelExport()` or the task).
    public final func export(to url: URL, as fileType: AVFileType, isolation: isolated (any Actor)? = #isolation) async throws {
        outputURL = url
        outputFileType = fileType
        await withTaskCancellationHandler {
            await export()
        } onCancel: {
            cancelExport()
        }
        switch status {
        case .completed: return
        case .cancelled: throw CancellationError()
        default: throw error ?? AVError(.exportFailed, reason: "the export did not complete")
        }
    }

    /// Stops the export: `status` becomes `.cancelled` and the partial file is removed. Returns
    /// at once; the completion handler follows promptly.
    open func cancelExport() {
        let job: ExportJob? = lock.withLock {
            cancelRequested = true
            return self.job
        }
        job?.cancel()
    }

    /// The export's states, sampled every `updateInterval` seconds while it runs (and on every
    /// change of status); the sequence ends when the export does.
    public func states(updateInterval: TimeInterval = .infinity) -> AsyncStream<State> {
        Misuse.check(updateInterval > 0, .stateUpdateIntervalNotPositive)
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        let sampler = StateSampler(interval: updateInterval)
        let report: @Sendable () -> Void = { [weak self] in
            guard let self else {
                continuation.finish()
                return
            }
            let (status, progress) = self.lock.withLock { (self.statusValue, self.progressValue) }
            switch status {
            case .unknown: if sampler.shouldReport(status: status) { continuation.yield(.pending) }
            case .waiting: if sampler.shouldReport(status: status) { continuation.yield(.waiting) }
            case .exporting:
                if sampler.shouldReport(status: status) {
                    let progressObject = Progress(totalUnitCount: 1000)
                    progressObject.completedUnitCount = Int64(progress * 1000)
                    continuation.yield(.exporting(progress: progressObject))
                }
            case .completed, .failed, .cancelled:
                continuation.finish()
            }
        }
        lock.withLock { watchers[id] = report }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.watchers.removeValue(forKey: id) }
        }
        report()
        return stream
    }

    private func notifyWatchers() {
        for watcher in lock.withLock({ Array(watchers.values) }) { watcher() }
    }

    /// Records progress (never going back) and tells the watchers.
    private func advance(to fraction: Float) {
        let moved: Bool = lock.withLock {
            guard fraction > progressValue else { return false }
            progressValue = fraction
            return true
        }
        if moved { notifyWatchers() }
    }

    /// Runs the export and records how it ended.
    private func run() {
        let result: Result<Void, AVError>
        do throws(AVError) {
            let job = try makeJob()
            let cancelled: Bool = lock.withLock {
                self.job = job
                return cancelRequested
            }
            if cancelled { job.cancel() }
            try job.run(progress: advance(to:))
            result = .success(())
        } catch {
            result = .failure(error)
        }
        lock.withLock {
            job = nil
            switch result {
            case .success:
                statusValue = .completed
                progressValue = 1
            case .failure(let error) where error.code == .operationCancelled:
                statusValue = .cancelled
                errorValue = error
            case .failure(let error):
                statusValue = .failed
                errorValue = error
            }
        }
        notifyWatchers()
    }

    /// The job for the session's settings; throws for settings that cannot be exported.
    private func makeJob() throws(AVError) -> ExportJob {
        guard let outputURL else { throw AVError(.exportFailed, reason: "outputURL is not set") }
        guard let outputFileType = outputFileType ?? AVFileType.fileType(forPathExtension: outputURL.pathExtension) else {
            throw AVError(.exportFailed, reason: "outputFileType is not set and \(outputURL.lastPathComponent) has no movie or audio extension")
        }
        if audioMix != nil, case .passthrough = preset.audio {
            throw AVError(.operationNotSupportedForPreset, reason: "\(presetName) does not encode audio, so it cannot apply an audio mix")
        }
        if case .failure(let error) = asset.loader.contentsBlocking() { throw error }
        if let videoComposition {
            guard case .encode = preset.video else {
                throw AVError(.operationNotSupportedForPreset, reason: "\(presetName) does not encode video, so it cannot apply a video composition")
            }
            if let problem = VideoCompositionValidation.problem(of: videoComposition, asset: asset, timeRange: .invalid) {
                throw AVError(.invalidVideoComposition, reason: "the video composition is not valid: \(problem)")
            }
        }
        guard preset.compatibleFileTypes(for: asset).contains(outputFileType) else {
            throw AVError(.operationNotSupportedForPreset,
                          reason: "\(presetName) cannot export this asset to a \(outputFileType.rawValue) file (it can write: \(supportedFileTypes.map(\.rawValue).joined(separator: ", ")))")
        }
        var options = ExportJob.Options()
        options.timeRange = timeRange
        var items = metadata ?? asset.metadata
        if let metadataItemFilter { items = AVMetadataItem.metadataItems(from: items, filteredBy: metadataItemFilter) }
        options.metadata = items
        options.shouldOptimizeForNetworkUse = shouldOptimizeForNetworkUse
        options.fileLengthLimit = fileLengthLimit
        options.videoComposition = videoComposition.flatMap { $0.copy() as? AVVideoComposition }
        options.audioMix = audioMix?.copy() as? AVAudioMix
        return ExportJob(asset: asset, outputURL: outputURL, fileType: outputFileType,
                         tracks: preset.plan(for: asset, videoComposition: videoComposition), options: options)
    }
}

/// Decides which state changes a `states(updateInterval:)` sequence reports: every change of
/// status, and progress at most once per interval.
private final class StateSampler: @unchecked Sendable {
    private let lock = NSLock()
    private let interval: TimeInterval
    private var lastStatus: AVAssetExportSession.Status?
    private var lastReport = Date.distantPast

    init(interval: TimeInterval) { self.interval = interval }

    func shouldReport(status: AVAssetExportSession.Status) -> Bool {
        lock.withLock {
            let now = Date()
            if status != lastStatus || now.timeIntervalSince(lastReport) >= interval {
                lastStatus = status
                lastReport = now
                return true
            }
            return false
        }
    }
}
