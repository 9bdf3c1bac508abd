import Foundation
import OpenCoreMedia

/// One run of `AVVideoComposition.isValid(for:timeRange:validationDelegate:)`: every problem
/// found goes to the delegate, which says whether to look further. Also why an export or a
/// reader refuses a composition (the first problem, in words).
struct VideoCompositionValidation {
    let composition: AVVideoComposition
    /// The asset handed to the delegate with a layer instruction naming a track it lacks.
    let asset: AVAsset?
    /// The IDs of the video tracks layer instructions may name; nil to skip that check.
    let videoTrackIDs: Set<CMPersistentTrackID>?
    /// The duration instructions must cover when the range checked is invalid.
    let duration: CMTime
    let delegate: (any AVVideoCompositionValidationHandling)?
    /// The problems found, in words.
    private(set) var problems: [String] = []

    /// A validation against `asset` (its video tracks and duration), or against nothing.
    init(composition: AVVideoComposition, asset: AVAsset?, delegate: (any AVVideoCompositionValidationHandling)?) {
        self.composition = composition
        self.asset = asset
        videoTrackIDs = asset.map { Set($0.tracks(withMediaType: .video).map(\.trackID)) }
        duration = asset?.duration ?? .invalid
        self.delegate = delegate
    }

    /// A validation against an asset's tracks (none: no track check) and duration.
    init(composition: AVVideoComposition, tracks: [AVAssetTrack], duration: CMTime,
         delegate: (any AVVideoCompositionValidationHandling)?) {
        self.composition = composition
        asset = tracks.lazy.compactMap(\.asset).first
        videoTrackIDs = tracks.isEmpty ? nil : Set(tracks.filter { $0.mediaType == .video }.map(\.trackID))
        self.duration = duration
        self.delegate = delegate
    }

    /// Whether `timeRange` (the asset's duration when invalid) renders.
    func run(_ timeRange: CMTimeRange) -> Bool {
        var validation = self
        validation.check(timeRange)
        return validation.problems.isEmpty
    }

    /// The first problem with rendering `timeRange`, or nil.
    static func problem(of composition: AVVideoComposition, asset: AVAsset, timeRange: CMTimeRange) -> String? {
        var validation = VideoCompositionValidation(composition: composition, asset: asset, delegate: nil)
        validation.check(timeRange)
        return validation.problems.first
    }

    private mutating func check(_ timeRange: CMTimeRange) {
        let composition = self.composition, asset = self.asset
        let size = composition.renderSize
        if !(size.width > 0 && size.height > 0),
           !report("renderSize is \(size.width)x\(size.height)", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidValueForKey: "renderSize") }) { return }
        let frameDuration = composition.frameDuration
        if !(frameDuration.isNumeric && frameDuration > .zero),
           !report("frameDuration is not a positive time", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidValueForKey: "frameDuration") }) { return }
        if !(composition.renderScale > 0),
           !report("renderScale is \(composition.renderScale)", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidValueForKey: "renderScale") }) { return }

        let covered = timeRange.isValid && timeRange.duration.isNumeric
            ? timeRange : CMTimeRange(start: .zero, duration: duration.isNumeric ? duration : .zero)
        var reached = covered.start
        for instruction in composition.instructions.sorted(by: { $0.timeRange.start < $1.timeRange.start }) {
            let range = instruction.timeRange
            guard range.isValid, range.start.isNumeric, range.duration.isNumeric, range.duration > .zero else {
                if !report("an instruction's time range is invalid", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidTimeRangeIn: instruction) }) { return }
                continue
            }
            if range.start < reached, range.end > covered.start {
                if !report("an instruction at \(range.start.seconds) s overlaps the one before it",
                           { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidTimeRangeIn: instruction) }) { return }
            } else if range.start > reached, reached < covered.end {
                let gap = CMTimeRange(start: reached, end: min(range.start, covered.end))
                if !report("no instruction covers \(gap.start.seconds)–\(gap.end.seconds) s",
                           { $0.videoComposition(composition, shouldContinueValidatingAfterFindingEmptyTimeRange: gap) }) { return }
            }
            reached = max(reached, range.end)
            guard let videoTrackIDs, let builtIn = instruction as? AVVideoCompositionInstruction else { continue }
            for layer in builtIn.layerInstructions where !videoTrackIDs.contains(layer.trackID) {
                if !report("a layer instruction names track \(layer.trackID), which is not a video track of the asset", { delegate in
                    // Without an asset to hand the delegate (its tracks' asset is gone), look further.
                    asset.map { delegate.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidTrackIDIn: instruction,
                                                          layerInstruction: layer, asset: $0) } ?? true
                }) { return }
            }
        }
        if reached < covered.end {
            let gap = CMTimeRange(start: reached, end: covered.end)
            _ = report("no instruction covers \(gap.start.seconds)–\(gap.end.seconds) s",
                       { $0.videoComposition(composition, shouldContinueValidatingAfterFindingEmptyTimeRange: gap) })
        }
    }

    /// Notes a problem; whether to go on (the delegate's answer; without one, yes).
    private mutating func report(_ problem: String, _ ask: (any AVVideoCompositionValidationHandling) -> Bool) -> Bool {
        problems.append(problem)
        return delegate.map(ask) ?? true
    }
}
